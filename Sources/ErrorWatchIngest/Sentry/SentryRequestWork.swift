import ErrorStreaming
import Foundation
import NIOCore
import NIOHTTP1

/// Sentry envelopes as an ``HTTPIngestService``: a complete request inflated, read, mapped, its clients counted and
/// its events delivered (before the SDK has its answer), linear in the request's size.
struct SentryRequestWork: HTTPIngestService {
    let exchange: SentryExchange
    let registry: SenderRegistry
    let connections: ConnectionSlots
    let deliver: @Sendable (SenderStatus, [SentryMappedEvent]) -> Void
    let deliverSpans: @Sendable (SenderStatus, [TraceSpan]) -> Void

    func check(_ head: HTTPRequestHead) -> HTTPIngestCheck<SentryExchange.Accepted> { exchange.check(head) }

    func check(_ head: HTTPRequestHead, host: String) -> HTTPIngestCheck<SentryExchange.Accepted> {
        exchange.check(head, host: host)
    }

    func refusal(_ status: HTTPResponseStatus, _ message: String, for accepted: SentryExchange.Accepted?)
        -> HTTPIngestResponse
    {
        SentryExchange.answer(status, message)
    }

    func record(refused response: HTTPIngestResponse, problem: String?, peer: String, host: String) {
        registry.record(SentryExchange.Outcome(response: response, problem: problem), peer: peer, host: host, at: Date())
    }

    func run(
        _ accepted: SentryExchange.Accepted, body: ByteBuffer, reserved: Int, peer: String, host: String
    ) -> HTTPIngestResponse {
        let outcome: SentryExchange.Outcome
        do {
            defer { connections.release(reserved) }
            outcome = exchange.complete(accepted, body: Array(body.readableBytesView))
        }
        let rows = registry.record(outcome, peer: peer, host: host, at: Date())
        if !outcome.rateLimited {
            // Spans first, as the OTLP receivers do: an error of the trace finds its spans stored.
            for (group, row) in zip(outcome.groups, rows) {
                if !group.spans.isEmpty { deliverSpans(row, group.spans) }
                if !group.events.isEmpty { deliver(row, group.events) }
            }
        }
        return outcome.response
    }
}
