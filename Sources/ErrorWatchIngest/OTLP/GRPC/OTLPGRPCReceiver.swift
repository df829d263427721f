import ErrorStreaming
import ErrorWatchWire
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOPosix
import Synchronization

/// An OTLP/gRPC receiver: the collector services' `Export` calls (`LogsService`, `MetricsService`,
/// `TraceService`), plaintext HTTP/2, gzip or deflate request compression, mapped onto ``WireEvent``s exactly as
/// ``OTLPReceiver`` maps OTLP/HTTP (docs/otlp.md has the mapping, the limits and the status codes).
///
/// A request is decoded by the OTLP/HTTP receiver's own code, then the runtime is asked whether it has room:
/// `UNAVAILABLE` with a `RetryInfo` when not (the SDK retries; nothing of the request is kept), `INVALID_ARGUMENT`
/// for a message that does not decode, `RESOURCE_EXHAUSTED` for one over ``OTLPReceiver/Limits/maximumBodyBytes``
/// (sent or inflated), a response with `partial_success` for records it rejected. Every sender is a row; a client
/// whose requests never decoded is a row of its own (`client HOST`), counted.
///
/// ```swift
/// let receiver = OTLPGRPCReceiver(endpoint: try OTLPEndpoint(parsing: "otlp-grpc:4317")) { source, events in
///     for event in events { ingest.ingest(event, from: source.key) }
/// }
/// try await receiver.start()
/// …
/// await receiver.shutdown()
/// ```
public final class OTLPGRPCReceiver: Sendable {
    /// Calls in flight on one HTTP/2 connection; a client that opens more is refused them by HTTP/2 itself.
    public static let maximumStreamsPerConnection = 100

    /// What one call in flight is charged, reserved from ``OTLPReceiver/Limits/bodyBudgetBytes`` while its stream
    /// is open, beside its message's own bytes: a call stalled before its message holds its stream, the transport's
    /// handlers and the task serving it, so the budget bounds stalled calls as it bounds bodies (at most 4,096 with
    /// the default 64 MiB). An estimate, not a measurement of one call: docs/benchmarks-hostile.md ("The OTLP/gRPC
    /// receiver") has what 25,600 stalled calls cost in all.
    public static let streamCostBytes = 16 * 1024

    /// The HTTP/2 flow-control window the receiver grants each connection and each call: bytes a client may send
    /// before the receiver has read them.
    public static let flowControlWindow = 1 << 20

    private enum Phase {
        case idle
        case starting
        case listening(GRPCServer<HTTP2ServerTransport.Posix>, Task<Void, Never>, OTLPEndpoint)
        case shutDown
    }

    /// The endpoint asked for.
    public let endpoint: OTLPEndpoint
    /// The limits in force: the message size (``OTLPReceiver/Limits/maximumBodyBytes``), the time a call may take
    /// to deliver its message (``OTLPReceiver/Limits/requestTimeout``), the idle time of a connection, the retry
    /// delay.
    public let limits: OTLPReceiver.Limits
    private let group: MultiThreadedEventLoopGroup
    private let service: OTLPGRPCService
    private let phase = Mutex(Phase.idle)
    /// Connections without their preface yet: closed at once on shutdown.
    private let awaitingPreface = PrefaceWaiters()

    /// Creates a receiver; nothing happens until ``start()``. The parameters are ``OTLPReceiver``'s.
    ///
    /// - Parameters:
    ///   - endpoint: where to listen (its ``OTLPEndpoint/transport`` is not looked at).
    ///   - limits: message size, deadlines, the retry delay.
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    ///   - traces: what is remembered of recent traces to count one failure once; receivers sharing one count a
    ///     failure once across them.
    ///   - hasRoom: whether the dashboard can take this many more records now; `false` answers `UNAVAILABLE`.
    ///   - onStatus: called once per call with the senders' rows it changed and the keys of senders forgotten.
    ///   - onSpans: called with each accepted trace batch's spans, per sender, before its events.
    ///   - onEvents: called with each accepted batch's events, per sender, before the answer is sent.
    public init(
        endpoint: OTLPEndpoint, limits: OTLPReceiver.Limits = OTLPReceiver.Limits(),
        eventLoopGroup: MultiThreadedEventLoopGroup = .singleton,
        traces: OTLPTraceMemory = OTLPTraceMemory(),
        hasRoom: @escaping @Sendable (Int) -> Bool = { _ in true },
        onStatus: @escaping @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void = { _, _ in },
        onSpans: @escaping @Sendable (SenderStatus, [TraceSpan]) -> Void = { _, _ in },
        onEvents: @escaping @Sendable (SenderStatus, [WireEvent]) -> Void
    ) {
        self.endpoint = endpoint
        self.limits = limits
        self.group = eventLoopGroup
        let exchange = OTLPExchange(
            limits: limits, streams: OTLPMetricStreams(), traces: traces, admit: hasRoom, now: { Date() })
        // The HTTP receivers' connection slots and body budget: connections take slots (OTLPGRPCConnectionWatch),
        // calls and their messages take body budget (OTLPGRPCStreamGate).
        let connections = ConnectionSlots(capacity: limits.maximumConnections, bodyBudget: limits.bodyBudgetBytes)
        self.service = OTLPGRPCService(
            work: OTLPRequestWork(
                exchange: exchange, registry: SenderRegistry(onStatus: onStatus), connections: connections,
                deliver: onEvents, deliverSpans: onSpans),
            limits: limits)
    }

    /// Every sender heard from (at most 1,024: the least recently heard give way).
    public var sources: [SenderStatus] { service.registry.snapshot }

    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    public var localEndpoint: OTLPEndpoint? {
        phase.withLock { phase in
            if case .listening(_, _, let endpoint) = phase { return endpoint }
            return nil
        }
    }

    /// What the receiver had to do to stay within its limits, counted as the HTTP receivers count it: connections
    /// evicted or refused for a slot, calls and messages refused for the body budget
    /// (``OTLPReceiver/Statistics/overBodyBudget``), and, in ``OTLPReceiver/Statistics/timedOutRequests``,
    /// connections closed without a preface, calls whose message had not arrived and answers not read within
    /// ``OTLPReceiver/Limits/requestTimeout``.
    public var statistics: OTLPReceiver.Statistics {
        var statistics = service.work.connections.statistics
        statistics.timedOutRequests += service.timedOutCalls.current
        return statistics
    }

    /// Connections open now (within ``OTLPReceiver/Limits/maximumConnections``).
    public var openConnections: Int { service.work.connections.count }

    /// Bytes of the body budget held now, by calls in flight and their messages (within
    /// ``OTLPReceiver/Limits/bodyBudgetBytes``).
    public var bodyBytesInFlight: Int { service.work.connections.bodyBytes }

    /// Calls that opened their stream and have not sent their message yet (each is ended at the request deadline).
    var callsAwaitingMessage: Int { Int(service.awaitingMessage.current) }

    /// Starts listening; throws a ``ErrorWatchWire/WireTransportError/cannotListen(endpoint:reason:)`` when the
    /// address cannot be bound (a port in use, a name that does not resolve).
    public func start() async throws {
        let started = phase.withLock { phase in
            guard case .idle = phase else { return false }
            phase = .starting
            return true
        }
        guard started else { throw WireTransportError.alreadyStarted }
        let address: GRPCNIOTransportCore.SocketAddress
        do {
            address = try Self.address(endpoint)
        } catch {
            phase.withLock { $0 = .idle }
            throw ListenProblem.error(error, endpoint: "\(endpoint)") ?? error
        }
        let limits = self.limits
        let transport = HTTP2ServerTransport.Posix(
            address: address, transportSecurity: .plaintext,
            config: .defaults { config in
                // The Collector's `otlp` exporter and the SDKs compress with gzip by default.
                config.compression.enabledAlgorithms = [.gzip, .deflate]
                // A message announcing more than the limit never gets here (OTLPGRPCStreamGate). One that inflates
                // past it is read up to twice the limit and answered RESOURCE_EXHAUSTED by the service; past that
                // the transport stops inflating it and resets its stream (the client reads UNAVAILABLE).
                config.rpc.maxRequestPayloadSize = 2 * limits.maximumBodyBytes
                // A client opening a thousand streams and stalling holds at most this many calls a connection,
                // each for at most the request deadline (OTLPGRPCService).
                config.http2.maxConcurrentStreams = Self.maximumStreamsPerConnection
                // HTTP/2's initial window (64 KiB, which the transport keeps) is smaller than one export of 500
                // spans, so a client must stop mid-message until the receiver's WINDOW_UPDATE comes back: one round
                // trip per 64 KiB, shared by all of a connection's calls. On loopback that costs nothing measurable
                // (docs/otlp.md, "Load"); from another machine it caps a connection at 64 KiB per round trip. 1 MiB
                // lets a typical export arrive at once; what a message may hold is still bounded by the size limit.
                config.http2.targetWindowSize = Self.flowControlWindow
                config.connection.maxIdleTime = limits.idleTimeout
                // Each connection takes a slot (or is closed at once when every slot is busy) and must send its
                // preface within the request deadline; a client's breach of HTTP/2 (too many streams, floods) is
                // counted against it, whatever its calls (OTLPGRPCConnectionWatch).
                let (registry, connections, awaitingPreface) =
                    (service.registry, service.work.connections, self.awaitingPreface)
                config.channelDebuggingCallbacks.onAcceptTCPConnection = { channel in
                    guard OTLPGRPCConnectionWatch.admit(channel, to: connections) else {
                        return channel.eventLoop.makeSucceededVoidFuture()
                    }
                    return OTLPGRPCConnectionWatch.install(
                        on: channel, registry: registry, connections: connections,
                        awaitingPreface: awaitingPreface, prefaceTimeout: limits.requestTimeout)
                }
                // On each call, before the transport reads it: answers go uncompressed, so no call holds a zlib
                // compressor for a few bytes (OTLPGRPCPlainAnswers); the call and its message are weighed against
                // the body budget and the size limit before anything is buffered, and its stream ends with its
                // answer (OTLPGRPCStreamGate).
                config.channelDebuggingCallbacks.onAcceptHTTP2Stream = { stream in
                    OTLPGRPCPlainAnswers.install(on: stream).flatMap {
                        OTLPGRPCStreamGate.install(
                            on: stream, connections: connections, limits: limits, streamCost: Self.streamCostBytes)
                    }
                }
            },
            eventLoopGroup: group)
        let server = GRPCServer(transport: transport, services: [service])
        let serving = Task<Result<Void, any Error>, Never> {
            do {
                try await server.serve()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let bound: GRPCNIOTransportCore.SocketAddress
        do {
            bound = try await transport.listeningAddress
        } catch {
            // The transport closed before listening: serve() says why (the bind's own error, wrapped).
            let served = await serving.value
            phase.withLock { $0 = .idle }
            let cause: any Error
            if case .failure(let failure) = served { cause = Self.rootCause(failure) } else { cause = error }
            throw ListenProblem.error(cause, endpoint: "\(endpoint)") ?? cause
        }
        let port = bound.ipv4?.port ?? bound.ipv6?.port ?? endpoint.port
        let local = OTLPEndpoint(host: endpoint.host, port: port, transport: .grpc)
        let keeper = Task { _ = await serving.value }
        let accepted = phase.withLock { phase in
            guard case .starting = phase else { return false }
            phase = .listening(server, keeper, local)
            return true
        }
        if !accepted {
            server.beginGracefulShutdown()
            await keeper.value
            throw WireTransportError.alreadyStarted
        }
    }

    /// Stops accepting, lets calls in flight finish (each within the request deadline) and closes every connection,
    /// those that never sent their HTTP/2 preface at once.
    public func shutdown() async {
        let previous = phase.withLock { phase in
            defer { phase = .shutDown }
            return phase
        }
        guard case .listening(let server, let serving, _) = previous else { return }
        server.beginGracefulShutdown()
        // Calls in flight finish; connections that never sent their preface have none to finish, and would each
        // hold the shutdown until their preface deadline.
        awaitingPreface.closeAll()
        await serving.value
    }

    /// The transport's address for `endpoint`: an IP address as it is, a name resolved (NIO's resolver, whose
    /// failure ``ListenProblem`` words).
    private static func address(_ endpoint: OTLPEndpoint) throws -> GRPCNIOTransportCore.SocketAddress {
        let resolved = try NIOCore.SocketAddress.makeAddressResolvingHost(endpoint.host, port: endpoint.port)
        switch resolved {
        case .v6:
            return .ipv6(host: resolved.ipAddress ?? endpoint.host, port: endpoint.port)
        default:
            return .ipv4(host: resolved.ipAddress ?? endpoint.host, port: endpoint.port)
        }
    }

    /// The innermost cause of a gRPC runtime error (the `IOError` of a failed bind).
    private static func rootCause(_ error: any Error) -> any Error {
        var current = error
        while let wrapped = current as? RuntimeError, let cause = wrapped.cause { current = cause }
        return current
    }
}

extension OTLPGRPCReceiver: OTLPServer {}
