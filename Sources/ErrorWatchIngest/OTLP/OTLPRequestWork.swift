import ErrorWatchWire
import Foundation
import NIOCore

/// What a complete request costs the receiver: the body inflated, decoded and mapped, its senders counted and its
/// events delivered, linear in the request's size. Runs on the connection's event loop for small bodies and on
/// NIO's thread pool for large ones (``OTLPReceiver/Limits/inlineDecodeBytes``), so one large request never holds
/// a loop that other connections share.
struct OTLPRequestWork: Sendable {
    let exchange: OTLPExchange
    let registry: OTLPSourceRegistry
    let connections: OTLPConnections
    let deliver: @Sendable (OTLPSourceStatus, [WireEvent]) -> Void

    /// Handles `body` (holding `reserved` bytes of the body budget, given back once it is decoded) for `peer`;
    /// returns the answer. The events are delivered before it returns: a sender that has its `200` finds its events
    /// ingested.
    func run(
        _ request: OTLPExchange.Accepted, body: ByteBuffer, reserved: Int, peer: String, host: String
    ) -> OTLPExchange.Response {
        let outcome: OTLPExchange.Outcome
        do {
            defer { connections.release(reserved) }
            outcome = exchange.complete(request, body: Array(body.readableBytesView))
        }
        let sources = registry.record(outcome, peer: peer, host: host, at: Date())
        if let batch = outcome.batch {
            for (group, source) in zip(batch.groups, sources) where !group.events.isEmpty {
                deliver(source, group.events)
            }
        }
        return outcome.response
    }
}
