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

    /// The endpoint asked for.
    public let endpoint: OTLPEndpoint
    /// The limits in force.
    public var limits: Limits { receiver.limits }
    private let receiver: HTTPReceiver<OTLPRequestWork>

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
        onStatus: @escaping @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (SenderStatus, [TraceSpan]) -> Void = { _, _ in },
        onEvents: @escaping @Sendable (SenderStatus, [WireEvent]) -> Void
    ) {
        self.endpoint = endpoint
        let registry = SenderRegistry(onStatus: onStatus)
        let exchange = OTLPExchange(
            limits: limits, streams: OTLPMetricStreams(), traces: traces, admit: hasRoom, now: { Date() })
        receiver = HTTPReceiver(
            address: .tcp(host: endpoint.host, port: endpoint.port), name: "\(endpoint)", limits: limits,
            group: eventLoopGroup
        ) { connections in
            OTLPRequestWork(
                exchange: exchange, registry: registry, connections: connections, deliver: onEvents,
                deliverSpans: onSpans)
        }
    }

    /// Every sender heard from (at most 1,024: the least recently heard give way).
    public var sources: [SenderStatus] { receiver.service.registry.snapshot }

    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    public var localEndpoint: OTLPEndpoint? {
        receiver.boundAddress.map { OTLPEndpoint(host: endpoint.host, port: $0.port, transport: .http) }
    }

    /// Connections open now.
    public var openConnections: Int { receiver.connections.count }

    /// Bytes of request bodies held now, across connections (within ``Limits/bodyBudgetBytes``).
    public var bodyBytesInFlight: Int { receiver.connections.bodyBytes }

    /// What the receiver had to do to stay within its limits so far.
    public var statistics: Statistics { receiver.connections.statistics }

    /// Starts listening; throws when the address cannot be bound.
    public func start() async throws { try await receiver.start() }

    /// Stops accepting and closes every connection.
    public func shutdown() async { await receiver.shutdown() }
}
