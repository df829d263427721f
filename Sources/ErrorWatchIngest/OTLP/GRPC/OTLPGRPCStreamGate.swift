import NIOCore
import NIOHTTP2

/// Keeps one call's stream within the receiver's budgets as its frames are read, before the transport buffers any
/// of them: the same ``ConnectionSlots`` body budget the HTTP receivers keep, the size limit, and the deadline for
/// an answer to be read.
///
/// The handler sits first on each call's stream, before the gRPC handler, and reads the call's bytes with
/// ``OTLPGRPCMessageFraming``:
///
/// - **The call itself.** When its headers arrive, the call reserves ``OTLPGRPCReceiver/streamCostBytes`` of the
///   body budget (what a call in flight costs the receiver, measured), given back when its stream ends. When the
///   budget holds no room, the call is answered at once (below) instead of being held.
/// - **Its message.** From the message's five-byte prefix, before any of it is buffered: a length over
///   ``OTLPReceiver/Limits/maximumBodyBytes`` is refused as too large; otherwise the length is reserved in the body
///   budget, and refused when it does not fit. A second message (an `Export` takes one) is refused from its prefix
///   too, so it is never buffered either.
/// - **Its answer.** Once the answer's trailers are written, the stream is reset if the client has not ended its
///   side (RFC 9113 8.1 lets a server end a request it has answered), and in any case closed when the answer has not
///   been read within ``OTLPReceiver/Limits/requestTimeout`` (a client that keeps its window shut): a stream never
///   outlives its answer by more than the deadline.
/// - **Its deadline.** The message must arrive within ``OTLPReceiver/Limits/requestTimeout`` of the call's headers
///   (``armMessageDeadline(_:)``).
///
/// A refusal is told to the service, not written here: the handler hands the gRPC handler a small stand-in message
/// (``standIn(_:)``) in place of the message and ends the call's input, then drops whatever the client still sends
/// (HTTP/2 flow control still credits those bytes, so the client is not stalled). The service recognises the
/// stand-in (``StandIn/init(reading:)``) and answers `RESOURCE_EXHAUSTED`, counted.
///
/// The handler lives on its stream's event loop only; it is not `Sendable`.
final class OTLPGRPCStreamGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private enum State {
        /// Before the call's headers.
        case opening
        /// The client's bytes go to the gRPC handler.
        case passing
        /// The call's input was ended here (a refusal, or the client's own end): what still comes is dropped.
        case ended
    }

    private let connections: ConnectionSlots
    private let limits: OTLPReceiver.Limits
    private let streamCost: Int
    private var state = State.opening
    private var framing = OTLPGRPCMessageFraming()
    /// Bytes of the body budget this call holds.
    private var reserved = 0
    /// Whether the client ended its side of the stream.
    private var clientEnded = false
    private var answerTimer: Scheduled<Void>?
    private var messageTimer: Scheduled<Void>?

    init(connections: ConnectionSlots, limits: OTLPReceiver.Limits, streamCost: Int) {
        self.connections = connections
        self.limits = limits
        self.streamCost = streamCost
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let headers):
            if headers.endStream { clientEnded = true }
            switch state {
            case .opening:
                context.fireChannelRead(data)
                guard !headers.endStream else {
                    // A call without a message: the gRPC handler answers it at once, holding nothing.
                    state = .ended
                    return
                }
                switch connections.reserve(streamCost, forBodyOf: streamCost) {
                case .reserved:
                    reserved += streamCost
                    state = .passing
                    armMessageDeadline(context)
                case .overBudget, .tooLarge:
                    end(context, with: .noRoomForCall, after: nil)
                }
            case .passing:
                // A client's trailers: the gRPC handler's to judge.
                if headers.endStream { inputEnded() }
                context.fireChannelRead(data)
            case .ended:
                break
            }
        case .data(let frame):
            if frame.endStream { clientEnded = true }
            guard case .passing = state else { return }
            read(context, frame)
        default:
            context.fireChannelRead(data)
        }
    }

    /// Passes a DATA frame on, weighing each message whose prefix it holds; a prefix cut by the frame's end is held
    /// back until its rest arrives, so the gRPC handler never sees part of a prefix the handler may yet replace.
    private func read(_ context: ChannelHandlerContext, _ frame: HTTP2Frame.FramePayload.Data) {
        guard case .byteBuffer(let buffer) = frame.data else {
            context.fireChannelRead(wrapInboundOut(.data(frame)))
            return
        }
        // `out` stays nil while the frame passes as it came; it holds the bytes to pass once they differ.
        var out: ByteBuffer?
        var refusal: StandIn?
        buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count, refusal == nil {
                let step = framing.next(in: bytes, from: offset)
                switch step {
                case .body(let count):
                    out?.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
                case .partialPrefix:
                    if out == nil { out = Self.copy(bytes, upTo: offset, allocator: context.channel.allocator) }
                case .prefix(let count, let prefix):
                    refusal = weigh(prefix)
                    // A prefix begun in an earlier frame was held back: it is written whole here (its rest is at
                    // the frame's start, so nothing of this frame comes before it).
                    let begunEarlier = count < 5
                    if refusal != nil || begunEarlier, out == nil {
                        out = Self.copy(bytes, upTo: begunEarlier ? 0 : offset, allocator: context.channel.allocator)
                    }
                    if refusal == nil { out?.writeBytes(prefix.bytes) }
                }
                offset += step.count
            }
        }
        if let refusal {
            end(context, with: refusal, after: out)
            return
        }
        var passed = frame
        if let out {
            passed.data = .byteBuffer(out)
            passed.paddingBytes = nil
        }
        if frame.endStream { inputEnded() }
        context.fireChannelRead(wrapInboundOut(.data(passed)))
    }

    /// The refusal a message's prefix earns, or nil when the message is let through (its length reserved).
    private func weigh(_ prefix: OTLPGRPCMessageFraming.Prefix) -> StandIn? {
        guard framing.messages == 1 else { return .secondMessage }
        guard prefix.length <= limits.maximumBodyBytes else {
            return .tooLarge(size: prefix.length, compressed: prefix.compressed)
        }
        switch connections.reserve(prefix.length, forBodyOf: prefix.length) {
        case .reserved:
            reserved += prefix.length
            return nil
        case .overBudget, .tooLarge:
            return .overBudget(size: prefix.length)
        }
    }

    /// Ends the call's input here: `before` (the bytes ahead of the refused message, if any), then the stand-in for
    /// `refusal` with the end of the stream; everything the client sends after is dropped.
    private func end(_ context: ChannelHandlerContext, with refusal: StandIn, after before: ByteBuffer?) {
        inputEnded()
        var bytes = before ?? context.channel.allocator.buffer(capacity: 32)
        let standIn = Self.standIn(refusal)
        bytes.writeInteger(UInt8(0))
        bytes.writeInteger(UInt32(standIn.count))
        bytes.writeBytes(standIn)
        let frame = HTTP2Frame.FramePayload.Data(data: .byteBuffer(bytes), endStream: true)
        context.fireChannelRead(wrapInboundOut(.data(frame)))
    }

    /// The call's input is complete (or was ended here): nothing more to wait for.
    private func inputEnded() {
        state = .ended
        messageTimer?.cancel()
        messageTimer = nil
    }

    /// The call's message must have arrived within the request deadline of its headers. A call that sent nothing
    /// of it is answered `DEADLINE_EXCEEDED` by the service (``StandIn/deadline``); one that sent its message but
    /// never ended its side is taken as it is; one stopped mid-message is closed and counted. A timer on the
    /// stream's event loop, not a task per call: a stalled call costs what its stream costs.
    private func armMessageDeadline(_ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        messageTimer = context.eventLoop.scheduleTask(in: TimeAmount(limits.requestTimeout)) {
            let (gate, context) = loopBound.value
            gate.messageTimer = nil
            guard case .passing = gate.state else { return }
            // Outside a read: the handlers after (the async channel's) take what was read at its read's end.
            if gate.framing.messages == 0 {
                gate.end(context, with: .deadline, after: nil)
                context.fireChannelReadComplete()
            } else if gate.framing.atMessageBoundary {
                gate.inputEnded()
                let end = HTTP2Frame.FramePayload.Data(data: .byteBuffer(ByteBuffer()), endStream: true)
                context.fireChannelRead(gate.wrapInboundOut(.data(end)))
                context.fireChannelReadComplete()
            } else {
                gate.inputEnded()
                gate.connections.countTimedOut()
                context.close(promise: nil)
            }
        }
    }

    private static func copy(_ bytes: UnsafeRawBufferPointer, upTo end: Int, allocator: ByteBufferAllocator)
        -> ByteBuffer
    {
        var buffer = allocator.buffer(capacity: end + 16)
        if end > 0 { buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[0..<end])) }
        return buffer
    }

    // MARK: Outbound: the answer

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .headers(let headers) = unwrapOutboundIn(data), headers.endStream else {
            context.write(data, promise: promise)
            return
        }
        // The answer's end. A client that never reads it (a shut window) holds the stream until the deadline.
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        answerTimer = context.eventLoop.scheduleTask(in: TimeAmount(limits.requestTimeout)) {
            let (gate, context) = loopBound.value
            gate.connections.countTimedOut()
            context.close(promise: nil)
        }
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        written.futureResult.whenSuccess {
            let (gate, context) = loopBound.value
            gate.answerTimer?.cancel()
            gate.answerTimer = nil
            // Answered before the client ended its request: end the stream rather than wait for the rest.
            if !gate.clientEnded { context.close(promise: nil) }
        }
    }

    // MARK: The budget given back

    func channelInactive(context: ChannelHandlerContext) {
        giveBack()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        giveBack()
    }

    private func giveBack() {
        answerTimer?.cancel()
        answerTimer = nil
        messageTimer?.cancel()
        messageTimer = nil
        connections.release(reserved)
        reserved = 0
    }

    /// Puts the gate first on a call's stream, before the gRPC handler reads its headers.
    static func install(
        on stream: any Channel, connections: ConnectionSlots, limits: OTLPReceiver.Limits, streamCost: Int
    ) -> EventLoopFuture<Void> {
        stream.eventLoop.makeCompletedFuture {
            try stream.pipeline.syncOperations.addHandler(
                Self(connections: connections, limits: limits, streamCost: streamCost), position: .first)
        }
    }
}

// MARK: The stand-in message

extension OTLPGRPCStreamGate {
    /// Why a call was refused before its message was read, as its stand-in message tells the service.
    enum StandIn: Sendable, Hashable {
        /// The message announced more than the size limit (`compressed` as sent).
        case tooLarge(size: Int, compressed: Bool)
        /// The message's announced length did not fit in the body budget now.
        case overBudget(size: Int)
        /// The call's own cost did not fit in the body budget now.
        case noRoomForCall
        /// The call sent a second message.
        case secondMessage
        /// The call's message did not arrive within the request deadline.
        case deadline

        /// The stand-in's value: the size shifted left by three bits, the kind in the low three.
        fileprivate var value: UInt64 {
            switch self {
            case .tooLarge(let size, let compressed): UInt64(size) << 3 | (compressed ? 1 : 0)
            case .overBudget(let size): UInt64(size) << 3 | 2
            case .noRoomForCall: 3
            case .secondMessage: 4
            case .deadline: 5
            }
        }

        /// The refusal a stand-in message holds; nil for any other message.
        init?(reading message: UnsafeRawBufferPointer) {
            let key = OTLPGRPCStreamGate.markerKey
            guard message.count > key.count, message.count <= key.count + 10,
                message.prefix(key.count).elementsEqual(key)
            else { return nil }
            var value: UInt64 = 0
            var shift: UInt64 = 0
            for (index, byte) in message.dropFirst(key.count).enumerated() {
                value |= UInt64(byte & 0x7F) << shift
                shift += 7
                guard byte & 0x80 == 0 else { continue }
                guard index == message.count - key.count - 1 else { return nil }
                let size = Int(value >> 3)
                switch value & 7 {
                case 0, 1: self = .tooLarge(size: size, compressed: value & 1 == 1)
                case 2: self = .overBudget(size: size)
                case 3 where size == 0: self = .noRoomForCall
                case 4 where size == 0: self = .secondMessage
                case 5 where size == 0: self = .deadline
                default: return nil
                }
                return
            }
            return nil
        }
    }

    /// A protobuf field number no OTLP message uses (the largest allowed, 2^29 - 1), as a varint field's key.
    fileprivate static let markerKey: [UInt8] = varint(UInt64(536_870_911) << 3)

    /// The stand-in for a refused message: a valid protobuf message of one unknown field holding the refusal.
    static func standIn(_ refusal: StandIn) -> [UInt8] { markerKey + varint(refusal.value) }

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
}
