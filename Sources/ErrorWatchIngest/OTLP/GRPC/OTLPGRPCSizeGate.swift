import NIOCore
import NIOHTTP2

/// Answers a call whose message is over the size limit `RESOURCE_EXHAUSTED` as soon as its size is announced,
/// without reading the message.
///
/// A gRPC message starts with five bytes: a compression flag and the message's length. The transport reads the
/// whole message before the service sees it, and it stops one past `maxRequestPayloadSize` by resetting the
/// stream, so the client reads a retryable `UNAVAILABLE` ("Stream unexpectedly closed"), with no word of why. This handler sits before the gRPC handler on each call's stream and reads the length
/// from the message's first frame. When it is over ``OTLPReceiver/Limits/maximumBodyBytes``, the handler passes
/// the gRPC handler a small stand-in message (``marker(declared:compressed:)``) in its place and drops the rest of
/// the message's frames unread (HTTP/2 flow control still credits them, so the client is not stalled). The service
/// recognises the stand-in (``declared(in:)``) and answers `RESOURCE_EXHAUSTED` without retry information (final,
/// says the OTLP specification; Python's exporter retries it until its timeout all the same) with the size the
/// client announced; the call is counted against its client like any other. Nothing of the message is buffered,
/// whatever size it announces.
///
/// A message under the limit passes untouched and the handler leaves the pipeline. A message that announces a size
/// under the limit and inflates past it is the service's to answer (its inflated size is known only once inflated).
final class OTLPGRPCSizeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload

    private let limit: Int
    /// Whether the message was replaced and its remaining frames are being dropped.
    private var dropping = false

    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .data(var frame) = unwrapInboundIn(data) else {
            // Headers (the call's own, or a client's trailers) are the gRPC handler's.
            context.fireChannelRead(data)
            return
        }
        if dropping {
            // The message's rest, unread; the client's end of the stream still reaches the gRPC handler.
            if frame.endStream {
                frame.data = .byteBuffer(ByteBuffer())
                frame.paddingBytes = nil
                context.fireChannelRead(wrapInboundOut(.data(frame)))
            }
            return
        }
        guard case .byteBuffer(let bytes) = frame.data, bytes.readableBytes >= 5,
            let flag = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self),
            let length = bytes.getInteger(at: bytes.readerIndex + 1, as: UInt32.self)
        else {
            // A first frame shorter than the five-byte prefix (no client library sends one): the transport reads
            // the message as it is, with its own limit.
            leave(context, forwarding: data)
            return
        }
        guard Int(length) > limit else {
            leave(context, forwarding: data)
            return
        }
        dropping = true
        let marker = Self.marker(declared: Int(length), compressed: flag & 1 == 1)
        var standIn = ByteBuffer()
        standIn.writeInteger(UInt8(0))
        standIn.writeInteger(UInt32(marker.count))
        standIn.writeBytes(marker)
        frame.data = .byteBuffer(standIn)
        frame.paddingBytes = nil
        context.fireChannelRead(wrapInboundOut(.data(frame)))
    }

    private func leave(_ context: ChannelHandlerContext, forwarding data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    // MARK: The stand-in message

    /// A protobuf field number no OTLP message uses (the largest allowed, 2^29 - 1), as a varint field's key.
    private static let markerKey: [UInt8] = varint(UInt64(536_870_911) << 3)

    /// The stand-in for a message of `declared` bytes: a valid protobuf message (one unknown field), holding the
    /// size announced, and 1 more when the message was compressed.
    static func marker(declared: Int, compressed: Bool) -> [UInt8] {
        markerKey + varint(UInt64(declared) << 1 | (compressed ? 1 : 0))
    }

    /// The size announced and whether the message was compressed, when `message` is a stand-in.
    static func declared(in message: UnsafeRawBufferPointer) -> (size: Int, compressed: Bool)? {
        guard message.count > markerKey.count, message.count <= markerKey.count + 10,
            message.prefix(markerKey.count).elementsEqual(markerKey)
        else { return nil }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for (index, byte) in message.dropFirst(markerKey.count).enumerated() {
            value |= UInt64(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 {
                guard index == message.count - markerKey.count - 1 else { return nil }
                return (Int(value >> 1), value & 1 == 1)
            }
        }
        return nil
    }

    private static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    /// Puts the gate first on a call's stream, before the gRPC handler reads its message.
    static func install(on stream: any Channel, limit: Int) -> EventLoopFuture<Void> {
        stream.eventLoop.makeCompletedFuture {
            try stream.pipeline.syncOperations.addHandler(Self(limit: limit), position: .first)
        }
    }
}
