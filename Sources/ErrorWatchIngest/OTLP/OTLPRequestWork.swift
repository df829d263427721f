import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOCore

/// What a complete request costs the receiver: the body inflated, decoded and mapped, its senders counted and its
/// events and spans delivered, linear in the request's size. Runs on the connection's event loop for small bodies
/// and on NIO's thread pool for large ones (``OTLPReceiver/Limits/inlineDecodeBytes``), so one large request never
/// holds a loop that other connections share.
///
/// The `export(…)` entry points take a request already decoded, for a transport that decodes its own messages
/// (gRPC): they count, map and deliver exactly as an HTTP request is, and return the same ``OTLPExchange/Outcome``.
struct OTLPRequestWork: Sendable {
    let exchange: OTLPExchange
    let registry: OTLPSourceRegistry
    let connections: OTLPConnections
    let deliver: @Sendable (OTLPSourceStatus, [WireEvent]) -> Void
    let deliverSpans: @Sendable (OTLPSourceStatus, [TraceSpan]) -> Void

    /// Handles `body` (holding `reserved` bytes of the body budget, given back once it is decoded) for `peer`;
    /// returns the answer. The events are delivered before it returns: a sender that has its `200` finds its events
    /// ingested.
    func run(
        _ request: OTLPExchange.Accepted, body: ByteBuffer, reserved: Int, peer: String, host: String
    ) -> OTLPExchange.Response {
        let outcome: OTLPExchange.Outcome
        do {
            defer { connections.release(reserved) }
            outcome = exchange.complete(request, body: body)
        }
        return finish(outcome, peer: peer, host: host).response
    }

    /// A decoded logs export from `peer` (address and port; `host` alone): counted, mapped and delivered.
    func export(logs request: OTLPProtoExportLogsServiceRequest, peer: String, host: String) -> OTLPExchange.Outcome {
        finish(exchange.accept(logs: request), peer: peer, host: host)
    }

    /// A decoded metrics export from `peer`: counted, mapped and delivered.
    func export(
        metrics request: OTLPProtoExportMetricsServiceRequest, peer: String, host: String
    ) -> OTLPExchange.Outcome {
        finish(exchange.accept(metrics: request), peer: peer, host: host)
    }

    /// A decoded trace export from `peer`: counted, mapped (errors from spans, spans for the trace store) and
    /// delivered. The outcome says how to answer: ``OTLPExchange/Outcome/refused`` not empty is "behind, retry after
    /// ``OTLPReceiver/Limits/retryAfterSeconds``" (HTTP 503, gRPC `UNAVAILABLE`); else the batch's `rejected` and
    /// `rejectionMessage` are the `partial_success` (``OTLPExchange/traceResponse(_:)`` builds the message).
    func export(traces request: OTLPProtoExportTraceServiceRequest, peer: String, host: String) -> OTLPExchange.Outcome {
        finish(exchange.accept(traces: request), peer: peer, host: host)
    }

    /// Counts `outcome` in its senders' rows and delivers its events and spans, sender by sender.
    func finish(_ outcome: OTLPExchange.Outcome, peer: String, host: String) -> OTLPExchange.Outcome {
        let sources = registry.record(outcome, peer: peer, host: host, at: Date())
        if let batch = outcome.batch {
            for (group, source) in zip(batch.groups, sources) {
                if !group.spans.isEmpty { deliverSpans(source, group.spans) }
                if !group.events.isEmpty { deliver(source, group.events) }
            }
        }
        return outcome
    }
}
