import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOHTTP1

/// What ``SentryReceiver`` does with one request, without a socket: the path, method, key and encoding checked, a
/// gzip or deflate body inflated within the body limit, the envelope (or store event) read and its items mapped. For
/// code that has a request body in hand and no connection: the fuzz targets (Fuzz/), a captured envelope read back.
///
/// Every request is admitted (there is no dashboard to be behind), and no `Sources` row is kept.
///
/// ```swift
/// let answer = SentryRequestDecoder().decode(path: "/api/1/envelope/", body: Array(envelope.utf8))
/// // answer.status == 200; answer.events holds one event per error, failed span and log record; answer.spans
/// // every transaction's spans
/// ```
public struct SentryRequestDecoder: Sendable {
    /// What a request became.
    public struct Answer: Sendable, Equatable {
        /// The HTTP status the receiver answers with: 200, or 400, 401, 404, 405, 413 or 415.
        public var status: Int
        /// The events of an accepted request, in request order; empty otherwise.
        public var events: [SentryMappedEvent]
        /// The spans of its transactions, for the trace store, in request order; empty otherwise.
        public var spans: [TraceSpan] = []
        /// Items skipped (of types not read, or broken) and attachments counted.
        public var skipped: Int
        /// Why the request failed, or what was wrong with its items.
        public var problem: String?
    }

    private let exchange: SentryExchange

    /// A decoder with the receiver's limits and key; `now` stands in for the time of events that carry none.
    public init(
        limits: HTTPReceiverLimits = HTTPReceiverLimits(maximumBodyBytes: 20 * 1024 * 1024),
        requiredKey: String? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        exchange = SentryExchange(limits: limits, requiredKey: requiredKey, admit: { _ in true }, now: now)
    }

    /// Handles one request: `path` (with its query), its headers (`X-Sentry-Auth`, `Content-Encoding`, …) and its
    /// complete body.
    public func decode(
        path: String, method: String = "POST", headers: [(String, String)] = [], body: [UInt8]
    ) -> Answer {
        var fields = HTTPHeaders([("content-length", String(body.count))])
        for (name, value) in headers { fields.add(name: name, value: value) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path, headers: fields)
        switch exchange.check(head) {
        case .refused(let response):
            return Answer(status: Int(response.status.code), events: [], skipped: 0, problem: response.message)
        case .accepted(let accepted):
            let outcome = exchange.complete(accepted, body: body)
            return Answer(
                status: Int(outcome.response.status.code), events: outcome.groups.flatMap(\.events),
                spans: outcome.groups.flatMap(\.spans),
                skipped: outcome.groups.reduce(0) { $0 + $1.skipped + $1.attachments }, problem: outcome.problem)
        }
    }
}
