import Foundation

/// Limits that protect the receiver, the dashboard and the other senders from one sender, for every HTTP
/// receiver (docs/otlp.md and docs/sentry.md, "Limits").
public struct HTTPReceiverLimits: Sendable, Hashable {
    /// The largest body accepted, both as sent and once inflated: 4 MiB by default. Above it: `413`.
    public var maximumBodyBytes: Int
    /// Connections open at once (HTTP/1.1 and HTTP/2 alike). When all are taken, a new connection evicts the one
    /// that has held an unfinished request the longest (else the longest idle); it is closed only when every
    /// connection is decoding.
    public var maximumConnections: Int
    /// How long a request may take from its first byte (or the connection's opening) to its last, and its answer
    /// to be read; then the connection is closed (over gRPC: the call is answered `DEADLINE_EXCEEDED`, or its stream
    /// closed, and a connection that has not sent its HTTP/2 preface by then is closed). A deadline, not a gap: trickling does not extend it, so it
    /// asks for a minimum rate (4 MiB in 10 s by default).
    public var requestTimeout: Duration
    /// How long a kept-alive connection may wait for its next request.
    public var idleTimeout: Duration
    /// The `Retry-After` seconds of a `503`.
    public var retryAfterSeconds: Int
    /// Bytes of request bodies held at once across all connections: 64 MiB by default. A body that does not fit
    /// now is answered `503` with `Retry-After`; one larger than the whole budget, `413`. A receiver on another
    /// transport that shares these limits counts its calls and messages against the same budget and refuses what
    /// does not fit in that transport's own words.
    public var bodyBudgetBytes: Int
    /// Bodies up to this size are decoded on the connection's event loop; larger ones on NIO's thread pool, so
    /// a big request never holds a loop that other connections share.
    public var inlineDecodeBytes: Int

    /// Creates limits: 4 MiB bodies, 256 connections, 10 s per request, 120 s idle, retry after 1 s, 64 MiB of
    /// bodies in flight, bodies over 64 KiB decoded off the event loop.
    public init(
        maximumBodyBytes: Int = 4 * 1024 * 1024, maximumConnections: Int = 256,
        requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(120), retryAfterSeconds: Int = 1,
        bodyBudgetBytes: Int = 64 * 1024 * 1024, inlineDecodeBytes: Int = 64 * 1024
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumConnections = maximumConnections
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.retryAfterSeconds = retryAfterSeconds
        self.bodyBudgetBytes = bodyBudgetBytes
        self.inlineDecodeBytes = inlineDecodeBytes
    }
}
