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
    /// The endpoint asked for.
    public let endpoint: SentryEndpoint
    /// The limits in force.
    public var limits: HTTPReceiverLimits { receiver.limits }
    /// The key SDKs must send, when one is required (`--sentry-key`).
    public let requiredKey: String?
    private let receiver: HTTPReceiver<SentryRequestWork>

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
    ///
    /// An address that keeps sending a wrong `sentry_key` is slowed: past 20 in 10 seconds, its wrong keys are
    /// answered `429` with `Retry-After` until the 10 seconds are over (``SentryKeyThrottle``).
    public convenience init(
        endpoint: SentryEndpoint, requiredKey: String? = nil,
        limits: HTTPReceiverLimits = HTTPReceiverLimits(maximumBodyBytes: 20 * 1024 * 1024),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        hasRoom: @escaping @Sendable (Int) -> Bool = { _ in true },
        onStatus: @escaping @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (SenderStatus, [TraceSpan]) -> Void = { _, _ in },
        onEvents: @escaping @Sendable (SenderStatus, [SentryMappedEvent]) -> Void
    ) {
        self.init(
            endpoint: endpoint, requiredKey: requiredKey, limits: limits, eventLoopGroup: eventLoopGroup,
            hasRoom: hasRoom, keyThrottle: SentryKeyThrottle(clock: ContinuousClock()), onStatus: onStatus,
            onSpans: onSpans, onEvents: onEvents)
    }

    /// A receiver whose wrong keys are slowed by `keyThrottle` (tests give it a `ManualClock`).
    init(
        endpoint: SentryEndpoint, requiredKey: String?, limits: HTTPReceiverLimits, eventLoopGroup: any EventLoopGroup,
        hasRoom: @escaping @Sendable (Int) -> Bool, keyThrottle: SentryKeyThrottle,
        onStatus: @escaping @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void,
        onSpans: @escaping @Sendable (SenderStatus, [TraceSpan]) -> Void,
        onEvents: @escaping @Sendable (SenderStatus, [SentryMappedEvent]) -> Void
    ) {
        self.endpoint = endpoint
        self.requiredKey = requiredKey
        let registry = SenderRegistry(onStatus: onStatus)
        var exchange = SentryExchange(limits: limits, requiredKey: requiredKey, admit: hasRoom, now: { Date() })
        exchange.keyThrottle = keyThrottle
        receiver = HTTPReceiver(
            address: .tcp(host: endpoint.host, port: endpoint.port), name: "\(endpoint)", limits: limits,
            group: eventLoopGroup
        ) { connections in
            SentryRequestWork(
                exchange: exchange, registry: registry, connections: connections, deliver: onEvents,
                deliverSpans: onSpans)
        }
    }

    /// Every client heard from (at most 1,024: the least recently heard give way).
    public var sources: [SenderStatus] { receiver.service.registry.snapshot }

    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    public var localEndpoint: SentryEndpoint? {
        receiver.boundAddress.map { SentryEndpoint(host: endpoint.host, port: $0.port) }
    }

    /// Connections open now.
    public var openConnections: Int { receiver.connections.count }

    /// What the receiver had to do to stay within its limits so far.
    public var statistics: HTTPReceiverStatistics { receiver.connections.statistics }

    /// Starts listening; throws when the address cannot be bound.
    public func start() async throws { try await receiver.start() }

    /// Stops accepting and closes every connection.
    public func shutdown() async { await receiver.shutdown() }
}
