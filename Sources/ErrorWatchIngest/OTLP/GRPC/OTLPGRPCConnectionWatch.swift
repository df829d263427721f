import Foundation
import NIOCore
import NIOHTTP2

/// Counts a client's breach of HTTP/2 against its row, on the connection itself.
///
/// When a client breaks HTTP/2 (opens more streams than ``OTLPGRPCReceiver/maximumStreamsPerConnection``, floods
/// resets, sends a frame its state forbids), swift-nio-http2 answers with `GOAWAY` or `RST_STREAM` and reports the
/// breach here, before it closes anything. The calls that had reached the service are counted there
/// (`UNAVAILABLE`); how many did depends on scheduling, since the connection may close before the server starts
/// them. This count does not: every breach is one bad request of `client HOST`, with what the client did.
final class OTLPGRPCConnectionWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    private let registry: SenderRegistry

    init(registry: SenderRegistry) {
        self.registry = registry
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

    /// Puts a watch on a connection just after its HTTP/2 handler, the one place its breaches are reported
    /// (the gRPC connection handler after it keeps them to itself).
    static func install(on channel: any Channel, registry: SenderRegistry) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            let http2 = try operations.handler(type: NIOHTTP2Handler.self)
            try operations.addHandler(Self(registry: registry), position: .after(http2))
        }
    }
}
