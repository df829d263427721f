import NIOCore
import NIOHTTP2

/// Keeps a call's answer uncompressed, so that no call holds a compressor it would use on a few bytes.
///
/// The gRPC transport compresses a call's answer with the first algorithm the client lists in
/// `grpc-accept-encoding` that the server accepts for requests, and it builds that compressor (zlib's deflate
/// state, about 256 KiB) as soon as the call's headers arrive. The Collector, grpc-go, Python's grpcio and
/// grpc-swift all list gzip, and the receiver must accept gzip requests, so every call in flight held one: with 50
/// clients that was 13 MB of the dashboard's peak (docs/otlp.md, "Load"). An OTLP answer is an empty message or a
/// `partial_success` of a few dozen bytes, which deflate makes no smaller.
///
/// This handler sits before the gRPC handler on each call's stream. It takes `grpc-accept-encoding` off the
/// call's first headers, so the transport answers uncompressed, which every client accepts (gRPC's `identity`),
/// then leaves the pipeline. The request itself is read as sent: `grpc-encoding`, the request's own compression,
/// is untouched, and the transport still announces the algorithms it accepts in its answer's headers.
final class OTLPGRPCPlainAnswers: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload

    static let acceptEncoding = "grpc-accept-encoding"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var payload = unwrapInboundIn(data)
        guard case .headers(var headers) = payload else {
            context.fireChannelRead(data)
            return
        }
        headers.headers.remove(name: Self.acceptEncoding)
        payload = .headers(headers)
        context.fireChannelRead(wrapInboundOut(payload))
        // Only a call's first headers choose its answer's compression: nothing else to do here.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Puts the handler first on a call's stream, before the gRPC handler reads its headers (the transport calls
    /// this while it sets the stream up, before any frame of it is delivered).
    static func install(on stream: any Channel) -> EventLoopFuture<Void> {
        stream.eventLoop.makeCompletedFuture {
            try stream.pipeline.syncOperations.addHandler(Self(), position: .first)
        }
    }
}
