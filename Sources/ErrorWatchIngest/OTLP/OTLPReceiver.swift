import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An OTLP/HTTP receiver: `POST /v1/logs`, `POST /v1/metrics` and `POST /v1/traces`, in binary protobuf or
/// OTLP/JSON, gzip or not, mapped onto ``WireEvent``s and, for traces, ``OTLPSpan``s (docs/otlp.md has the mapping,
/// the limits and the status codes).
///
/// Every accepted batch goes to `onEvents` with its sender's row, on the connection's event loop, before the
/// sender gets its `200`: keep it cheap and thread-safe. `hasRoom` is asked before a batch is mapped; when it says
/// no, the request is answered `503` with `Retry-After` and nothing of it is kept, so the SDK retries it.
///
/// ```swift
/// let receiver = OTLPReceiver(endpoint: try OTLPEndpoint(parsing: "otlp:4318")) { source, events in
///     for event in events { ingest.ingest(event, from: source.key) }
/// }
/// try await receiver.start()
/// …
/// await receiver.shutdown()
/// ```
public final class OTLPReceiver: Sendable {
    /// Limits that protect the receiver, the dashboard and the other senders from one sender (docs/otlp.md,
    /// "Limits").
    public struct Limits: Sendable, Hashable {
        /// The largest body accepted, both as sent and once inflated: 4 MiB by default. Above it: `413`.
        public var maximumBodyBytes: Int
        /// Connections open at once. When all are taken, a new connection evicts the one that has held an unfinished
        /// request the longest (else the longest idle); it is closed only when every connection is decoding.
        public var maximumConnections: Int
        /// How long a request may take from its first byte (or the connection's opening) to its last, and its answer
        /// to be read; then the connection is closed. A deadline, not a gap: trickling does not extend it, so it
        /// asks for a minimum rate (4 MiB in 10 s by default).
        public var requestTimeout: Duration
        /// How long a kept-alive connection may wait for its next request.
        public var idleTimeout: Duration
        /// The `Retry-After` seconds of a `503`.
        public var retryAfterSeconds: Int
        /// Bytes of request bodies held at once across all connections: 64 MiB by default. A body that does not fit
        /// now is answered `503` with `Retry-After`; one larger than the whole budget, `413`.
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

    /// What a receiver had to do to stay within its ``Limits``: shown in the receiver's row of the `Sources` pane.
    public struct Statistics: Sendable, Hashable {
        /// Connections closed to admit a new one when every slot was taken: the one that had held an unfinished
        /// request the longest (else the longest idle).
        public var evictedConnections: UInt64 = 0
        /// New connections closed at once because every slot was busy decoding a request.
        public var refusedConnections: UInt64 = 0
        /// Connections closed because a request was not complete (or its answer not read) within
        /// ``Limits/requestTimeout`` of its first byte.
        public var timedOutRequests: UInt64 = 0
        /// Requests refused because their body did not fit in ``Limits/bodyBudgetBytes`` (`503`, or `413` when the
        /// body alone is larger than the budget).
        public var overBodyBudget: UInt64 = 0

        /// No budget met yet.
        public init() {}
    }

    private enum Phase {
        case idle
        case listening(any Channel, OTLPEndpoint)
        case shutDown
    }

    /// The endpoint asked for.
    public let endpoint: OTLPEndpoint
    /// The limits in force.
    public let limits: Limits
    private let group: any EventLoopGroup
    private let registry: OTLPSourceRegistry
    private let work: OTLPRequestWork
    private let phase = Mutex(Phase.idle)
    private let connections: OTLPConnections

    /// Creates a receiver; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - endpoint: where to listen.
    ///   - limits: body size, connections and timeouts.
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    ///   - hasRoom: whether the dashboard can take this many more records now; `false` answers `503`.
    ///   - onStatus: called once per request with the senders' rows it changed (each once) and the keys of senders
    ///     forgotten to make room (at most 1,024 are kept), never once per record or per resource.
    ///   - onSpans: called with each accepted trace batch's spans, per sender, before its events.
    ///   - onEvents: called with each accepted batch's events, per sender, before the answer is sent.
    public init(
        endpoint: OTLPEndpoint, limits: Limits = Limits(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        hasRoom: @escaping @Sendable (Int) -> Bool = { _ in true },
        onStatus: @escaping @Sendable (_ changed: [OTLPSourceStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (OTLPSourceStatus, [OTLPSpan]) -> Void = { _, _ in },
        onEvents: @escaping @Sendable (OTLPSourceStatus, [WireEvent]) -> Void
    ) {
        self.endpoint = endpoint
        self.limits = limits
        self.group = eventLoopGroup
        self.connections = OTLPConnections(capacity: limits.maximumConnections, bodyBudget: limits.bodyBudgetBytes)
        let registry = OTLPSourceRegistry(onStatus: onStatus)
        self.registry = registry
        self.work = OTLPRequestWork(
            exchange: OTLPExchange(
                limits: limits, streams: OTLPMetricStreams(), traces: OTLPTraceMemory(), admit: hasRoom,
                now: { Date() }),
            registry: registry, connections: connections, deliver: onEvents, deliverSpans: onSpans)
    }

    /// Every sender heard from (at most 1,024: the least recently heard give way).
    public var sources: [OTLPSourceStatus] { registry.snapshot }

    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    public var localEndpoint: OTLPEndpoint? {
        phase.withLock { phase in
            if case .listening(_, let endpoint) = phase { return endpoint }
            return nil
        }
    }

    /// Connections open now.
    public var openConnections: Int { connections.count }

    /// Bytes of request bodies held now, across connections (within ``Limits/bodyBudgetBytes``).
    public var bodyBytesInFlight: Int { connections.bodyBytes }

    /// What the receiver had to do to stay within its limits so far.
    public var statistics: Statistics { connections.statistics }

    /// Starts listening; throws when the address cannot be bound.
    public func start() async throws {
        guard phase.withLock({ if case .idle = $0 { true } else { false } }) else {
            throw WireTransportError.alreadyStarted
        }
        let limits = self.limits
        let connections = self.connections
        let work = self.work
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Answers are small: a fixed send buffer bounds what a client that never reads can leave in the kernel
            // (autotuning would let each connection grow to megabytes) and makes it noticed after a few hundred.
            .childChannelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .childChannelInitializer { channel in
                guard connections.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.remove(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try OTLPHTTPHandler.configure(
                        channel.pipeline.syncOperations, OTLPHTTPHandler(work: work, limits: limits))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: endpoint.host, port: endpoint.port).get()
        } catch {
            throw ListenProblem.error(error, endpoint: "\(endpoint)") ?? error
        }
        let bound = OTLPEndpoint(host: endpoint.host, port: channel.localAddress?.port ?? endpoint.port)
        let accepted = phase.withLock { phase in
            guard case .idle = phase else { return false }
            phase = .listening(channel, bound)
            return true
        }
        if !accepted {
            try? await channel.close()
            throw WireTransportError.alreadyStarted
        }
    }

    /// Stops accepting and closes every connection.
    public func shutdown() async {
        let previous = phase.withLock { phase in
            defer { phase = .shutDown }
            return phase
        }
        guard case .listening(let server, _) = previous else { return }
        try? await server.close()
        for channel in connections.all {
            try? await channel.close()
        }
    }
}
