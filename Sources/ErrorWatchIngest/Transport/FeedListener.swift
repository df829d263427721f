import ErrorWatchWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server that accepts many producers at once on a Unix socket or a TCP port and decodes their NDJSON feeds.
///
/// The good events of each read go to `onBatch` together as a ``Batch``, in the order they were sent, on the
/// connection's event loop: keep it cheap and thread-safe (hand them to an ``ErrorStream`` or a queue). Each producer's
/// ``ProducerStatus`` is in ``producers``; `onStatus` hears when a producer connects, first names itself, and
/// disconnects (not once per event).
///
/// ```swift
/// let endpoint = try Endpoint(parsing: "unix:/tmp/ew.sock")
/// let listener = FeedListener(endpoint: endpoint) { (batch: FeedListener.Batch) in
///     for event in batch.events {
///         if let error = RemoteError(event) { stream.add(error, context: event.errorContext) }
///     }
/// }
/// try await listener.start()
/// …
/// await listener.shutdown()
/// ```
public final class FeedListener: Sendable {
    /// Limits that protect the listener, the UI and the other producers from one producer.
    public struct Configuration: Sendable, Hashable {
        /// The longest line accepted, newline included (the format says 64 KiB).
        public var maximumLineBytes: Int
        /// Bytes per second one connection may send; above it, that connection is closed. `nil`: no limit.
        public var maximumBytesPerSecond: Int?
        /// Bad lines one connection may send; one more closes it. `nil`: no limit.
        public var errorBudget: Int?
        /// How long a connection may stay open without sending a single byte. `nil`: forever.
        public var idleTimeout: Duration?
        /// How many disconnected producers ``FeedListener/producers`` keeps showing.
        public var keptDisconnected: Int
        /// Connections open at once. At the limit the connection that has held an unfinished line the longest
        /// (for at least ``evictionGrace``) is closed to admit a newcomer (``Statistics/evictedConnections``);
        /// when none has, the listener stops accepting and newcomers wait in the kernel's backlog until a slot
        /// frees (``Statistics/acceptPauses``). No connection is accepted and then closed unread.
        public var maximumConnections: Int = 256
        /// How long a connection must have held an unfinished line before it may be evicted for a newcomer.
        public var evictionGrace: Duration = .seconds(1)
        /// Bytes of unfinished lines held across all connections; over it, the connection holding the largest
        /// is closed and counted (``Statistics/closedForPartialLines``).
        public var partialLineBudget: Int = 16 * 1024 * 1024
        /// How long a line may take from its first byte to its newline before the connection is closed: a minimum
        /// rate, not a gap, so a connection trickling a byte a second is closed as surely as one that stopped
        /// (slowloris). `nil`: forever.
        public var stalledLineTimeout: Duration? = .seconds(10)
        /// The shape of the lines producers send: ``LogFormat/auto`` reads our wire format and every log shape a
        /// ``LineReader`` knows; ``LogFormat/wire`` counts anything else as a bad line.
        public var format: LogFormat = .auto

        /// Creates limits: 64 KiB lines, 32 MiB/s and 1,000 bad lines per connection, no idle timeout.
        public init(
            maximumLineBytes: Int = LineFramer.defaultMaximumLineBytes,
            maximumBytesPerSecond: Int? = 32 * 1024 * 1024, errorBudget: Int? = 1000, idleTimeout: Duration? = nil,
            keptDisconnected: Int = 64, format: LogFormat = .auto
        ) {
            self.format = format
            self.maximumLineBytes = maximumLineBytes
            self.maximumBytesPerSecond = maximumBytesPerSecond
            self.errorBudget = errorBudget
            self.idleTimeout = idleTimeout
            self.keptDisconnected = keptDisconnected
        }
    }

    /// What the listener refused or cut off to stay within its budgets.
    public struct Statistics: Sendable, Hashable {
        /// Times the listener stopped accepting because ``Configuration/maximumConnections`` were open and none
        /// could be evicted; newcomers waited in the kernel's backlog meanwhile.
        public var acceptPauses: UInt64 = 0
        /// Connections closed to admit a newcomer, each the one that had held an unfinished line the longest.
        public var evictedConnections: UInt64 = 0
        /// Connections closed because the unfinished lines of all connections went over
        /// ``Configuration/partialLineBudget`` and theirs was the largest.
        public var closedForPartialLines: UInt64 = 0
        /// Connections closed because a line was unfinished ``Configuration/stalledLineTimeout`` after its first byte.
        public var closedStalledMidLine: UInt64 = 0

        /// Nothing refused or cut off yet.
        public init() {}
    }

    /// The endpoint asked for.
    public let endpoint: Endpoint
    /// The limits in force.
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private let registry: ProducerRegistry
    private let onBatch: @Sendable (Batch) -> Void
    private let core: ReceiverCore

    /// Creates a listener; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - endpoint: where to listen. TCP endpoints made by ``Endpoint/init(parsing:)`` default to loopback.
    ///   - configuration: per-connection limits.
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    ///   - onStatus: called when a producer connects, names itself, or disconnects.
    ///   - onEvent: called with every good event, on the connection's event loop.
    public convenience init(
        endpoint: Endpoint, configuration: Configuration = Configuration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onStatus: @escaping @Sendable (ProducerStatus) -> Void = { _ in },
        onStatistics: @escaping @Sendable (Statistics) -> Void = { _ in },
        onEvent: @escaping @Sendable (ProducerID, WireEvent) -> Void
    ) {
        self.init(
            endpoint: endpoint, configuration: configuration, eventLoopGroup: eventLoopGroup, onStatus: onStatus,
            onStatistics: onStatistics,
            onBatch: { batch in for event in batch.events { onEvent(batch.producer, event) } })
    }

    /// The good events of one read of a connection, in the order they were sent (never none).
    public struct Batch: Sendable {
        /// The connection they came on.
        public var producer: ProducerID
        public var events: [WireEvent]
    }

    /// Creates a listener that hands on the good events of each read together; nothing happens until ``start()``.
    ///
    /// A read holds up to 64 KiB: hundreds of events under load, so what `onBatch` does once per call (a lock, a
    /// clock read, a wake-up) it does once per read, not once per event.
    /// ```swift
    /// let listener = FeedListener(endpoint: endpoint) { (batch: FeedListener.Batch) in
    ///     queue.append(contentsOf: batch.events)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: where to listen. TCP endpoints made by ``Endpoint/init(parsing:)`` default to loopback.
    ///   - configuration: per-connection limits.
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    ///   - onStatus: called when a producer connects, names itself, or disconnects.
    ///   - onBatch: called with the good events of each read, on the connection's event loop.
    public init(
        endpoint: Endpoint, configuration: Configuration = Configuration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onStatus: @escaping @Sendable (ProducerStatus) -> Void = { _ in },
        onStatistics: @escaping @Sendable (Statistics) -> Void = { _ in },
        onBatch: @escaping @Sendable (Batch) -> Void
    ) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.group = eventLoopGroup
        switch endpoint {
        case .unix(let path): core = ReceiverCore(address: .unix(path: path), name: endpoint.description)
        case .tcp(let host, let port): core = ReceiverCore(address: .tcp(host: host, port: port), name: endpoint.description)
        }
        self.registry = ProducerRegistry(
            keptDisconnected: configuration.keptDisconnected, maximumConnections: configuration.maximumConnections,
            partialLineBudget: configuration.partialLineBudget, evictionGrace: TimeAmount(configuration.evictionGrace),
            onStatus: onStatus, onStatistics: onStatistics)
        self.onBatch = onBatch
    }

    /// Every producer known, connected or recently disconnected, in connection order.
    public var producers: [ProducerStatus] { registry.snapshot }

    /// What the listener refused or cut off so far.
    public var statistics: Statistics { registry.statistics }

    /// The endpoint actually bound (a TCP port 0 becomes the port chosen), once started.
    public var localEndpoint: Endpoint? {
        switch core.boundAddress {
        case .tcp(let host, let port)?: .tcp(host: host, port: port)
        case .unix(let path)?: .unix(path: path)
        case nil: nil
        }
    }

    /// Starts listening.
    ///
    /// A Unix socket is created with mode 0600. A stale socket file (nobody accepts on it) is replaced; a live
    /// one throws ``WireTransportError/addressInUse(path:)``; a path that is not a socket is never removed.
    public func start() async throws {
        let registry = self.registry
        let configuration = self.configuration
        let onBatch = self.onBatch
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelOption(
                .recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16_384, maximum: 65_536)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        FeedConnectionHandler(registry: registry, configuration: configuration, onBatch: onBatch))
                }
            }
        let (channel, _) = try await core.start(bootstrap, group: group)
        Self.manageAcceptance(of: channel, registry: registry, grace: TimeAmount(configuration.evictionGrace))
    }

    /// Closes a connection from outside its handler, on its event loop, saying why.
    static func close(_ channel: any Channel, reason: ProducerStatus.DisconnectReason) {
        channel.pipeline.handler(type: FeedConnectionHandler.self).whenSuccess { _ in
            if let context = try? channel.pipeline.syncOperations.context(handlerType: FeedConnectionHandler.self),
                let handler = context.handler as? FeedConnectionHandler
            {
                handler.close(context: context, reason: reason)
            }
        }
    }

    /// Stops accepting, closes every producer's connection (state `listenerShutdown`) and removes the socket file.
    public func shutdown() async {
        let registry = self.registry
        await core.shutdown {
            for channel in registry.beginShutdown() {
                Self.close(channel, reason: .listenerShutdown)
                try? await channel.closeFuture.get()
            }
        }
    }
}
