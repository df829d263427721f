import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A receiver for Sentry SDKs: `POST /api/<project>/envelope/`, `POST /api/<project>/store/` and Spotlight's
/// `POST /stream`, gzip, deflate or plain, mapped onto wire events with a typed ``ExceptionReport`` each
/// (docs/sentry.md has the mapping, the limits and the status codes).
///
/// It serves HTTP/1.1 through the same ``IngestHTTPHandler`` as the OTLP receiver, with its fair connection slots,
/// deadlines and body budget. Every accepted envelope's events go to `onEvents` with their client's row, on the
/// connection's event loop (or NIO's thread pool for large bodies), before the SDK gets its `200`: keep it cheap
/// and thread-safe. `hasRoom` is asked before they are delivered; when it says no, the request is answered `429`
/// with `Retry-After` and `X-Sentry-Rate-Limits`, and nothing of it is kept, so the SDK backs off.
///
/// ```swift
/// let receiver = SentryReceiver(endpoint: try SentryEndpoint(parsing: "sentry:43210")) { client, events in
///     for mapped in events { … }
/// }
/// try await receiver.start()
/// …
/// await receiver.shutdown()
/// ```
public final class SentryReceiver: Sendable {
    private enum Phase {
        case idle
        case listening(any Channel, SentryEndpoint)
        case shutDown
    }

    /// The endpoint asked for.
    public let endpoint: SentryEndpoint
    /// The limits in force.
    public let limits: HTTPReceiverLimits
    /// The key SDKs must send, when one is required (`--sentry-key`).
    public let requiredKey: String?
    private let group: any EventLoopGroup
    private let registry: SentrySourceRegistry
    private let exchange: SentryExchange
    private let onEvents: @Sendable (SentrySourceStatus, [SentryMappedEvent]) -> Void
    private let onSpans: @Sendable (SentrySourceStatus, [TraceSpan]) -> Void
    private let phase = Mutex(Phase.idle)
    private let connections: OTLPConnections

    /// Creates a receiver; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - endpoint: where to listen.
    ///   - requiredKey: the `sentry_key` SDKs must send; `nil` accepts any.
    ///   - limits: body size, connections and timeouts (a 20 MiB body by default: Sentry SDKs send up to that).
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    ///   - hasRoom: whether the dashboard can take this many more events now; `false` answers `429`.
    ///   - onStatus: called once per request with the clients' rows it changed and the keys of clients forgotten to
    ///     make room (at most 1,024 are kept).
    ///   - onSpans: called with each accepted envelope's transaction spans (the transaction itself and its `spans`),
    ///     per client, before its events: the same span type the OTLP receivers hand on.
    ///   - onEvents: called with each accepted envelope's events, per client, before the answer is sent.
    public init(
        endpoint: SentryEndpoint, requiredKey: String? = nil,
        limits: HTTPReceiverLimits = HTTPReceiverLimits(maximumBodyBytes: 20 * 1024 * 1024),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        hasRoom: @escaping @Sendable (Int) -> Bool = { _ in true },
        onStatus: @escaping @Sendable (_ changed: [SentrySourceStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (SentrySourceStatus, [TraceSpan]) -> Void = { _, _ in },
        onEvents: @escaping @Sendable (SentrySourceStatus, [SentryMappedEvent]) -> Void
    ) {
        self.endpoint = endpoint
        self.limits = limits
        self.requiredKey = requiredKey
        self.group = eventLoopGroup
        self.connections = OTLPConnections(capacity: limits.maximumConnections, bodyBudget: limits.bodyBudgetBytes)
        self.registry = SentrySourceRegistry(onStatus: onStatus)
        self.exchange = SentryExchange(limits: limits, requiredKey: requiredKey, admit: hasRoom, now: { Date() })
        self.onEvents = onEvents
        self.onSpans = onSpans
    }

    /// Every client heard from (at most 1,024: the least recently heard give way).
    public var sources: [SentrySourceStatus] { registry.snapshot }

    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    public var localEndpoint: SentryEndpoint? {
        phase.withLock { phase in
            if case .listening(_, let endpoint) = phase { return endpoint }
            return nil
        }
    }

    /// Connections open now.
    public var openConnections: Int { connections.count }

    /// What the receiver had to do to stay within its limits so far.
    public var statistics: HTTPReceiverStatistics { connections.statistics }

    /// Starts listening; throws when the address cannot be bound.
    public func start() async throws {
        guard phase.withLock({ if case .idle = $0 { true } else { false } }) else {
            throw WireTransportError.alreadyStarted
        }
        let work = SentryRequestWork(
            exchange: exchange, registry: registry, connections: connections, deliver: onEvents,
            deliverSpans: onSpans)
        let (limits, connections) = (self.limits, self.connections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Answers are small: a fixed send buffer bounds what a client that never reads leaves in the kernel.
            .childChannelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .childChannelInitializer { channel in
                guard connections.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.remove(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try IngestHTTPHandler.configure(
                        channel.pipeline.syncOperations,
                        IngestHTTPHandler(service: work, connections: connections, limits: limits))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: endpoint.host, port: endpoint.port).get()
        } catch {
            throw ListenProblem.error(error, endpoint: "\(endpoint)") ?? error
        }
        let bound = SentryEndpoint(host: endpoint.host, port: channel.localAddress?.port ?? endpoint.port)
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
