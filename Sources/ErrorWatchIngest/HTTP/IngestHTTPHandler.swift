import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves one connection of an HTTP receiver (OTLP/HTTP, Sentry envelopes): NIO's HTTP/1.1 codec and pipelining
/// handler in front, the protocol's ``HTTPIngestService`` to check each request's head and decode its body.
///
/// - **One request at a time.** NIO's `HTTPServerPipelineHandler` holds a pipelined request (and stops reading)
///   until the previous answer ends, and an answer is ended only once its bytes are flushed to the socket: a client
///   that never reads its answers gets nothing more read, and is closed at the deadline below. Reading also stops
///   while the channel is not writable.
/// - **A deadline, not a gap.** A request must be complete within `requestTimeout` of its first byte (or of the
///   connection opening), however it trickles, and its answer read within `requestTimeout` of being written; a
///   kept-alive connection may wait `idleTimeout` for its next request. Then the connection is closed.
/// - **Bounded bodies.** A body is reserved in the receiver's body budget before it is buffered (all of a declared
///   `Content-Length` at once, a chunked body as it grows): over the budget, `503` with `Retry-After`; larger than
///   the budget or `maximumBodyBytes`, `413`. Early answers go out at once; the rest of the body is read off and
///   dropped, so the client sees the answer rather than a reset, and the connection is closed.
///
/// The handler lives on its channel's event loop only; it is not `Sendable`.
final class IngestHTTPHandler<Service: HTTPIngestService>: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Between requests; `started` once a byte of the next one arrived (or the connection opened).
        case waiting(started: Bool)
        /// Collecting an accepted request's body.
        case reading(Service.Accepted, ByteBuffer, keepAlive: Bool)
        /// Reading off the body of a request already refused by its head; the answer goes out at its end.
        case discarding(HTTPIngestResponse, keepAlive: Bool)
        /// A complete request being decoded, or its answer not flushed yet.
        case answering
        /// Answered early (413, 503) or broken: dropping what still comes, closing at the end of the request.
        case draining
    }

    private let work: Service
    private let connections: ConnectionSlots
    private let limits: HTTPReceiverLimits
    private var state = State.waiting(started: true)
    /// Bytes of the body budget this connection holds.
    private var reserved = 0
    private var readPending = false
    private var timer: Scheduled<Void>?
    private var peer = "unknown"
    private var peerHost = "unknown"

    init(service: Service, connections: ConnectionSlots, limits: HTTPReceiverLimits) {
        self.work = service
        self.connections = connections
        self.limits = limits
    }

    /// Adds the HTTP codec, the pipelining handler and `handler` to a new connection's pipeline.
    static func configure(_ pipeline: ChannelPipeline.SynchronousOperations, _ handler: IngestHTTPHandler) throws {
        try pipeline.addHandler(IngestByteWatch())
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
        try pipeline.addHandler(HTTPServerPipelineHandler())
        try pipeline.addHandler(handler)
    }

    func channelActive(context: ChannelHandlerContext) {
        if let address = context.channel.remoteAddress {
            peerHost = address.ipAddress ?? "?"
            peer = peerHost.contains(":") ? "[\(peerHost)]:\(address.port ?? 0)" : "\(peerHost):\(address.port ?? 0)"
        }
        arm(context, limits.requestTimeout, reason: "the request did not complete")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        connections.release(reserved)
        reserved = 0
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IngestBytesArrived else { return context.fireUserInboundEventTriggered(event) }
        if case .waiting(started: false) = state { start(context) }
    }

    /// A request's first byte: its deadline runs from now.
    private func start(_ context: ChannelHandlerContext) {
        state = .waiting(started: true)
        connections.hold(context.channel, .unfinished(since: 0))
        arm(context, limits.requestTimeout, reason: "the request did not complete")
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            readPending = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, readPending {
            readPending = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if case .waiting(started: false) = state { start(context) }
            switch work.check(head, host: peerHost) {
            case .accepted(let accepted):
                accept(context, head, accepted)
            case .refused(let response) where response.status == .payloadTooLarge:
                record(response, problem: "declared body over the limit")
                answerEarly(context, response)
            case .refused(let response):
                record(response, problem: response.message)
                state = .discarding(response, keepAlive: head.isKeepAlive)
            }
        case .body(var chunk):
            guard case .reading(let accepted, var buffer, let keepAlive) = state else { return }
            let needed = buffer.readableBytes + chunk.readableBytes
            guard needed <= limits.maximumBodyBytes else {
                let response = work.refusal(
                    .payloadTooLarge, "the body is over the limit of \(limits.maximumBodyBytes) bytes", for: accepted)
                record(response, problem: "body over the limit")
                answerEarly(context, response)
                return
            }
            if needed > reserved {
                // A chunked body grows its reservation by doubling, within the body limit and the budget.
                let target = min(
                    max(needed, 2 * reserved), limits.maximumBodyBytes, max(needed, limits.bodyBudgetBytes))
                guard budget(context, target - reserved, forBodyOf: needed, accepted) else { return }
                reserved = target
            }
            state = .waiting(started: true)  // so the buffer is uniquely referenced while it grows
            buffer.reserveCapacity(reserved)
            buffer.writeBuffer(&chunk)
            state = .reading(accepted, buffer, keepAlive: keepAlive)
        case .end:
            let current = state
            state = .answering
            switch current {
            case .reading(let accepted, let buffer, let keepAlive):
                complete(context, accepted, body: buffer, keepAlive: keepAlive)
            case .discarding(let response, let keepAlive):
                answer(context, response, keepAlive: keepAlive)
            case .draining:
                state = .draining
                context.close(promise: nil)
            case .waiting, .answering:
                state = current
            }
        }
    }

    /// A request whose head was accepted: reserves its declared body, says `100 Continue` when asked.
    private func accept(_ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ accepted: Service.Accepted) {
        let declared = max(head.headers.first(name: "content-length").flatMap(Int.init) ?? 0, 0)
        if declared > 0 {
            guard budget(context, declared, forBodyOf: declared, accepted) else { return }
            reserved = declared
        }
        if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
            let interim = HTTPResponseHead(version: head.version, status: .continue)
            context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
        }
        let buffer = context.channel.allocator.buffer(capacity: declared)
        state = .reading(accepted, buffer, keepAlive: head.isKeepAlive)
    }

    /// Reserves `bytes` more of the body budget; when they do not fit, answers `503` (or `413`) and returns false.
    private func budget(
        _ context: ChannelHandlerContext, _ bytes: Int, forBodyOf total: Int, _ accepted: Service.Accepted
    ) -> Bool {
        switch connections.reserve(bytes, forBodyOf: total) {
        case .reserved:
            return true
        case .tooLarge:
            let response = work.refusal(
                .payloadTooLarge, "the body is over the receiver's body budget of \(limits.bodyBudgetBytes) bytes",
                for: accepted)
            record(response, problem: "body over the body budget")
            answerEarly(context, response)
        case .overBudget:
            var response = work.refusal(
                .serviceUnavailable, "the receiver holds its budget of request bodies; retry later", for: accepted)
            response.retryAfter = limits.retryAfterSeconds
            // Not the sender's fault: counted in the receiver's statistics, not as a bad request of its row.
            answerEarly(context, response)
        }
        return false
    }

    /// Decodes and delivers a complete body, here or on the thread pool, then answers.
    private func complete(
        _ context: ChannelHandlerContext, _ accepted: Service.Accepted, body: ByteBuffer, keepAlive: Bool
    ) {
        timer?.cancel()
        timer = nil
        connections.hold(context.channel, .busy)
        let held = reserved
        reserved = 0  // given back by the work once the body is decoded
        let (work, peer, host) = (self.work, self.peer, self.peerHost)
        guard body.readableBytes > limits.inlineDecodeBytes else {
            let response = work.run(accepted, body: body, reserved: held, peer: peer, host: host)
            return answer(context, response, keepAlive: keepAlive)
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) {
            work.run(accepted, body: body, reserved: held, peer: peer, host: host)
        }.whenComplete { result in
            let (handler, context) = loopBound.value
            switch result {
            case .success(let response) where context.channel.isActive:
                handler.answer(context, response, keepAlive: keepAlive)
            case .success:
                break
            case .failure:
                // The pool is shut down: the process is ending.
                handler.connections.release(held)
                context.close(promise: nil)
            }
        }
    }

    /// Writes a complete request's answer and ends it once flushed: only then may the next request be read.
    private func answer(_ context: ChannelHandlerContext, _ response: HTTPIngestResponse, keepAlive: Bool) {
        state = .answering
        connections.hold(context.channel, .unfinished(since: 0))
        arm(context, limits.requestTimeout, reason: "the answer was not read")
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        write(context, response, keepAlive: keepAlive).whenComplete { result in
            let (handler, context) = loopBound.value
            guard case .success = result, context.channel.isActive else { return }
            if keepAlive {
                // Ready before the end is written: ending it may hand over a pipelined request at once.
                handler.state = .waiting(started: false)
                handler.connections.hold(context.channel, .idle(since: 0))
                handler.arm(context, handler.limits.idleTimeout, reason: nil)
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                handler.timer?.cancel()
                handler.state = .draining
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil))).whenComplete { _ in
                    loopBound.value.1.close(promise: nil)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard context.channel.isActive else { return }
        // Malformed HTTP (a bad request line, a broken chunk): answered 400 unless an answer already went out, then
        // closed, since the stream cannot be trusted any more. Anything else (a reset) just closes.
        guard error is HTTPParserError else { return context.close(promise: nil) }
        switch state {
        case .draining, .answering: return context.close(promise: nil)
        case .waiting, .reading, .discarding: break
        }
        let response = work.refusal(.badRequest, "malformed HTTP request: \(error)", for: nil)
        record(response, problem: "malformed HTTP request")
        releaseBody()
        answer(context, response, keepAlive: false)
    }

    /// Answers before the request's end and reads off the rest, closing once it is in (or the timer fires).
    private func answerEarly(_ context: ChannelHandlerContext, _ response: HTTPIngestResponse) {
        state = .draining
        releaseBody()
        write(context, response, keepAlive: false, end: true)
        // Counted once already: the timer only bounds how long the rest is read off.
        arm(context, limits.requestTimeout, reason: nil)
    }

    private func releaseBody() {
        connections.release(reserved)
        reserved = 0
    }

    @discardableResult
    private func write(
        _ context: ChannelHandlerContext, _ response: HTTPIngestResponse, keepAlive: Bool, end: Bool = false
    ) -> EventLoopFuture<Void> {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if let seconds = response.retryAfter { headers.add(name: "Retry-After", value: String(seconds)) }
        for header in response.headers { headers.add(name: header.name, value: header.value) }
        let head = HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var body = context.channel.allocator.buffer(capacity: response.body.count)
        body.writeBytes(response.body)
        guard end else { return context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(body)))) }
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        return context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }

    /// Counts the outcome of a request that did not reach decoding.
    private func record(_ response: HTTPIngestResponse, problem: String?) {
        work.record(refused: response, problem: problem, peer: peer, host: peerHost)
    }

    /// Closes the connection after `timeout` unless re-armed first; `reason` (when set) is counted for the client
    /// and in the receiver's statistics.
    private func arm(_ context: ChannelHandlerContext, _ timeout: Duration, reason: String?) {
        timer?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let (handler, context) = loopBound.value
            if let reason {
                let response = handler.work.refusal(.requestTimeout, reason, for: nil)
                handler.record(response, problem: "closed: \(reason) within \(timeout)")
                handler.connections.countTimedOut()
            }
            handler.state = .draining
            context.close(promise: nil)
        }
    }
}

/// Said by ``IngestByteWatch`` before it passes bytes on.
struct IngestBytesArrived: Sendable {}

/// Sits in front of the HTTP decoder and says when bytes arrive, so a request's deadline runs from its first byte,
/// not from its complete head (a head trickled byte by byte is a request in progress).
final class IngestByteWatch: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(IngestBytesArrived())
        context.fireChannelRead(data)
    }
}
