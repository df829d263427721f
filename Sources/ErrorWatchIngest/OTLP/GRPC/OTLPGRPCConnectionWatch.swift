import Synchronization
import Foundation
import NIOCore
import NIOHTTP2

/// Keeps one HTTP/2 connection within the receiver's connection budget and counts its breaches, on the connection
/// itself: the same ``ConnectionSlots`` and deadline the HTTP receivers keep, applied to gRPC.
///
/// - **Slots.** A new connection takes one of ``OTLPReceiver/Limits/maximumConnections`` slots (``admit(_:to:)``)
///   or, when all are taken, evicts the one that has held an unfinished exchange the longest (a connection that has
///   not finished its preface, or whose calls are open, ordered by its last stream opened or closed), else the
///   longest idle; the slot is given back when the connection closes. What the connection holds follows its
///   streams: open calls are unfinished, none is idle.
/// - **The preface.** A connection must send the HTTP/2 preface (the client's first SETTINGS) within
///   ``OTLPReceiver/Limits/requestTimeout`` of opening; one that does not is closed and counted, on the client's row
///   and in the receiver's statistics, like an HTTP request that did not complete.
/// - **Breaches.** When a client breaks HTTP/2 (opens more streams than
///   ``OTLPGRPCReceiver/maximumStreamsPerConnection``, floods resets, sends a frame its state forbids),
///   swift-nio-http2 answers with `GOAWAY` or `RST_STREAM` and reports the breach here, before it closes anything.
///   The calls that had reached the service are counted there (`UNAVAILABLE`); how many did depends on scheduling,
///   since the connection may close before the server starts them. This count does not: every breach is one bad
///   request of `client HOST`, with what the client did.
///
/// The handler sits just after the HTTP/2 handler, which passes it the connection's own frames (SETTINGS) and the
/// streams' openings and closings. It lives on its connection's event loop only; it is not `Sendable`.
final class OTLPGRPCConnectionWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let registry: SenderRegistry
    private let connections: ConnectionSlots
    private let awaitingPreface: PrefaceWaiters
    private let prefaceTimeout: Duration
    private var prefaceTimer: Scheduled<Void>?
    private var prefaceSeen = false
    private var openStreams = 0

    init(
        registry: SenderRegistry, connections: ConnectionSlots, awaitingPreface: PrefaceWaiters,
        prefaceTimeout: Duration
    ) {
        self.registry = registry
        self.connections = connections
        self.awaitingPreface = awaitingPreface
        self.prefaceTimeout = prefaceTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        awaitingPreface.add(context.channel)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        prefaceTimer = context.eventLoop.scheduleTask(in: TimeAmount(prefaceTimeout)) {
            let (watch, context) = loopBound.value
            guard !watch.prefaceSeen else { return }
            let peer = Self.peer(context.remoteAddress)
            let problem = "closed: sent no HTTP/2 preface within \(watch.prefaceTimeout)"
            _ = watch.registry.record(
                .refused(.deadline, problem), grpc: true, peer: peer.address, host: peer.host, at: Date())
            watch.connections.countTimedOut()
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        awaitingPreface.remove(context.channel)
        prefaceTimer?.cancel()
        prefaceTimer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !prefaceSeen, let frame = unwrapInboundIn(data) as? HTTP2Frame, case .settings(.settings) = frame.payload {
            // The client's first SETTINGS ends its preface.
            prefaceSeen = true
            awaitingPreface.remove(context.channel)
            prefaceTimer?.cancel()
            prefaceTimer = nil
            if openStreams == 0 { connections.hold(context.channel, .idle(since: 0)) }
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is NIOHTTP2StreamCreatedEvent:
            openStreams += 1
            connections.hold(context.channel, .unfinished(since: 0))
        case is StreamClosedEvent:
            openStreams = max(openStreams - 1, 0)
            connections.hold(context.channel, openStreams > 0 ? .unfinished(since: 0) : .idle(since: 0))
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let breach = Self.breach(error) {
            let peer = Self.peer(context.remoteAddress)
            _ = registry.record(
                .refused(.protocolError, breach), grpc: true, peer: peer.address, host: peer.host, at: Date())
        }
        context.fireErrorCaught(error)
    }

    /// What the client did, in words; `nil` for an error that is not an HTTP/2 breach (a socket reset).
    static func breach(_ error: any Error) -> String? {
        switch error {
        case is NIOHTTP2Errors.MaxStreamsViolation:
            return "opened more than \(OTLPGRPCReceiver.maximumStreamsPerConnection) streams at once; "
                + "the connection was ended (GOAWAY) and its calls with it"
        case is NIOHTTP2Errors.ExcessiveRSTFrames, is NIOHTTP2Errors.ExcessiveEmptyDataFrames,
            is NIOHTTP2Errors.ExcessiveNumberOfGlitches, is NIOHTTP2Errors.ExcessiveControlFrames,
            is NIOHTTP2Errors.ExcessiveContinuationFrames, is NIOHTTP2Errors.ExcessiveStreamErrors:
            return "flooded the connection (\(type(of: error))); it was ended (GOAWAY)"
        case is NIOHTTP2Errors.ExcessiveOutboundFrameBuffering:
            return "did not read its answers; the connection was ended (GOAWAY)"
        case is any NIOHTTP2Error:
            return "broke HTTP/2 (\(type(of: error)))"
        default:
            return nil
        }
    }

    /// A socket address as the service names a peer: `127.0.0.1:51234` and `127.0.0.1`, `[::1]:51234` and `::1`.
    static func peer(_ address: SocketAddress?) -> (address: String, host: String) {
        guard let address, let host = address.ipAddress else { return ("unknown", "unknown") }
        let port = address.port.map(String.init) ?? "?"
        if case .v6 = address { return ("[\(host)]:\(port)", host) }
        return ("\(host):\(port)", host)
    }

    /// Takes a slot for a new connection in `connections` (evicting another when all are taken) and bounds what a
    /// client that never reads can leave in the kernel; false when the connection was closed because every slot is
    /// busy.
    static func admit(_ channel: any Channel, to connections: ConnectionSlots) -> Bool {
        guard connections.admit(channel) else {
            channel.close(promise: nil)
            return false
        }
        channel.closeFuture.whenComplete { _ in connections.remove(channel) }
        return true
    }

    /// Puts a watch on a connection just after its HTTP/2 handler, the one place its breaches are reported
    /// (the gRPC connection handler after it keeps them to itself). Answers are small: a fixed send buffer bounds what
    /// a client that never reads can leave in the kernel, as on the HTTP receivers.
    static func install(
        on channel: any Channel, registry: SenderRegistry, connections: ConnectionSlots,
        awaitingPreface: PrefaceWaiters, prefaceTimeout: Duration
    ) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            try channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            let http2 = try operations.handler(type: NIOHTTP2Handler.self)
            let watch = Self(
                registry: registry, connections: connections, awaitingPreface: awaitingPreface,
                prefaceTimeout: prefaceTimeout)
            try operations.addHandler(watch, position: .after(http2))
        }
    }
}

/// The connections that have not sent their HTTP/2 preface yet. They can hold no call, and a graceful shutdown would
/// wait for each until its preface deadline (10 s by default): ``closeAll()`` closes them at once instead.
final class PrefaceWaiters: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) { channels.withLock { $0[ObjectIdentifier(channel)] = channel } }

    func remove(_ channel: any Channel) { channels.withLock { $0[ObjectIdentifier(channel)] = nil } }

    /// Closes every connection still waiting (after the lock is released).
    func closeAll() {
        let waiting = channels.withLock { channels in
            defer { channels = [:] }
            return Array(channels.values)
        }
        for channel in waiting { channel.close(promise: nil) }
    }
}
