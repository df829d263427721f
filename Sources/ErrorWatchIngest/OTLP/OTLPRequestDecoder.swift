import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOHTTP1

/// What ``OTLPReceiver`` does with one request, without a socket: the path, method, content type and encoding
/// checked, a gzip body inflated within the body limit, the protobuf or OTLP/JSON body decoded, and its records
/// mapped onto ``WireEvent``s. For code that has a request body in hand and no connection: the fuzz targets
/// (Fuzz/), a captured export read back.
///
/// Every request is admitted (there is no dashboard to be behind), and no `Sources` row is kept. Cumulative metric
/// streams and the failures already counted in recent traces are remembered across calls on the same decoder, as a
/// receiver remembers them across requests.
///
/// ```swift
/// let decoder = OTLPRequestDecoder()
/// let answer = decoder.decode(path: "/v1/logs", contentType: "application/json", body: Array(json.utf8))
/// // answer.status == 200; answer.events holds one event per log record
/// ```
public struct OTLPRequestDecoder: Sendable {
    /// What a request became.
    public struct Answer: Sendable, Equatable {
        /// The HTTP status the receiver answers with: 200, or 400, 404, 405, 413 or 415.
        public var status: Int
        /// The events of an accepted request, in request order; empty otherwise.
        public var events: [WireEvent]
        /// Records (log records, data points or spans) of an accepted request that were rejected
        /// (`partial_success`).
        public var rejected: Int
        /// Why the request failed, when it did.
        public var problem: String?
        /// The spans of an accepted trace export, in request order; empty otherwise.
        public var spans: [TraceSpan] = []
    }

    private let exchange: OTLPExchange

    /// A decoder with the receiver's limits; `now` stands in for the time of records that carry none.
    public init(limits: OTLPReceiver.Limits = OTLPReceiver.Limits(), now: @escaping @Sendable () -> Date = { Date() }) {
        exchange = OTLPExchange(
            limits: limits, streams: OTLPMetricStreams(), traces: OTLPTraceMemory(), admit: { _ in true }, now: now)
    }

    /// Handles one request: `path` (`/v1/logs`, `/v1/metrics` or `/v1/traces`), its `Content-Type` and `Content-Encoding`
    /// header values (`nil` when absent), and its complete body.
    public func decode(
        path: String, method: String = "POST", contentType: String?, contentEncoding: String? = nil, body: [UInt8]
    ) -> Answer {
        var headers = HTTPHeaders([("content-length", String(body.count))])
        if let contentType { headers.add(name: "content-type", value: contentType) }
        if let contentEncoding { headers.add(name: "content-encoding", value: contentEncoding) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path, headers: headers)
        let outcome: OTLPExchange.Outcome
        switch exchange.check(head) {
        case .refused(let refused, _): outcome = refused
        case .accepted(let accepted): outcome = exchange.complete(accepted, body: body)
        }
        return Answer(
            status: Int(outcome.refusal?.answer.http.code ?? 200), events: outcome.batch?.events ?? [],
            rejected: outcome.batch?.rejected ?? 0, problem: outcome.problem,
            spans: outcome.batch?.groups.flatMap(\.spans) ?? [])
    }
}
