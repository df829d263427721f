import NIOCore
import NIOHTTP1

/// An answer an HTTP receiver sends.
struct HTTPIngestResponse: Sendable, Equatable {
    var status: HTTPResponseStatus
    var contentType: String
    var body: [UInt8]
    /// Seconds, for `Retry-After` on 429 and 503.
    var retryAfter: Int?
    /// The error message of an error answer.
    var message: String?
    /// Further headers the protocol asks for (Sentry's `X-Sentry-Rate-Limits`).
    var headers: [(name: String, value: String)] = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.contentType == rhs.contentType && lhs.body == rhs.body
            && lhs.retryAfter == rhs.retryAfter && lhs.message == rhs.message
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

/// What a request's head says: read its body, or answer this at once.
enum HTTPIngestCheck<Accepted: Sendable>: Sendable {
    case accepted(Accepted)
    case refused(HTTPIngestResponse)
}

/// One protocol served over ``IngestHTTPHandler`` (OTLP/HTTP, Sentry envelopes): what the handler asks of it while
/// it keeps the connection's slot, deadline and body budget, which are the same for every protocol.
protocol HTTPIngestService: Sendable {
    /// What an accepted head said, carried to the body's end.
    associatedtype Accepted: Sendable

    /// Checks a request's head (route, method, content type and encoding, declared length).
    func check(_ head: HTTPRequestHead) -> HTTPIngestCheck<Accepted>

    /// Checks a request's head from the client address `host` (Sentry slows addresses that keep sending wrong keys);
    /// ``check(_:)`` by default.
    func check(_ head: HTTPRequestHead, host: String) -> HTTPIngestCheck<Accepted>

    /// An error answer in the protocol's form, for a request whose head was `accepted` (when known).
    func refusal(_ status: HTTPResponseStatus, _ message: String, for accepted: Accepted?) -> HTTPIngestResponse

    /// Counts a request that was answered before it was decoded, against the client `host` (`peer` with its port).
    func record(refused response: HTTPIngestResponse, problem: String?, peer: String, host: String)

    /// Decodes, admits and delivers a complete body (holding `reserved` bytes of the body budget, given back once it
    /// is decoded); returns the answer. Linear in the body's size; may run on NIO's thread pool.
    func run(_ accepted: Accepted, body: ByteBuffer, reserved: Int, peer: String, host: String) -> HTTPIngestResponse
}

extension HTTPIngestService {
    func check(_ head: HTTPRequestHead, host: String) -> HTTPIngestCheck<Accepted> { check(head) }
}
