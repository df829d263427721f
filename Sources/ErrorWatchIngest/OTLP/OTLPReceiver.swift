import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An OTLP/HTTP receiver: `POST /v1/logs`, `POST /v1/metrics` and `POST /v1/traces`, in binary protobuf or
/// OTLP/JSON, gzip or not, mapped onto ``WireEvent``s and, for traces, ``TraceSpan``s (docs/otlp.md has the mapping,
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
    /// "Limits"); the same for every HTTP receiver.
    public typealias Limits = HTTPReceiverLimits

    /// What a receiver had to do to stay within its ``Limits``: shown in the receiver's row of the `Sources` pane.
    public typealias Statistics = HTTPReceiverStatistics

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
    ///   - traces: what is remembered of recent traces to count one failure once; receivers sharing one count a
    ///     failure once across them.
    ///   - hasRoom: whether the dashboard can take this many more records now; `false` answers `503`.
    ///   - onStatus: called once per request with the senders' rows it changed (each once) and the keys of senders
    ///     forgotten to make room (at most 1,024 are kept), never once per record or per resource.
    ///   - onSpans: called with each accepted trace batch's spans, per sender, before its events.
    ///   - onEvents: called with each accepted batch's events, per sender, before the answer is sent.
    public init(
        endpoint: OTLPEndpoint, limits: Limits = Limits(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        traces: OTLPTraceMemory = OTLPTraceMemory(),
        hasRoom: @escaping @Sendable (Int) -> Bool = { _ in true },
        onStatus: @escaping @Sendable (_ changed: [OTLPSourceStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (OTLPSourceStatus, [TraceSpan]) -> Void = { _, _ in },
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
                limits: limits, streams: OTLPMetricStreams(), traces: traces, admit: hasRoom,
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
                    try IngestHTTPHandler.configure(
                        channel.pipeline.syncOperations,
                        IngestHTTPHandler(service: work, connections: work.connections, limits: limits))
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
