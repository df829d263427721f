import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1

/// Serves one OTLP/HTTP connection: NIO's HTTP/1.1 codec in front, ``OTLPExchange`` for each request.
///
/// Bodies are collected up to the limit (a larger declared `Content-Length` is answered 413 before any of it is
/// read; a body that grows past it is answered 413 as soon as it does) and then read off and dropped, so the
/// client sees the answer rather than a reset, and the connection is closed. One timer guards the connection:
/// a request must be complete within `requestTimeout` of its first byte (or of the connection opening), and a
/// kept-alive connection may wait `idleTimeout` for its next request; then it is closed.
/// The handler lives on its channel's event loop only; it is not `Sendable`.
final class OTLPHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Between requests.
        case waiting
        /// Collecting an accepted request's body.
        case reading(OTLPExchange.Accepted, ByteBuffer, keepAlive: Bool)
        /// Reading off the body of a request already refused by its head; the answer goes out at its end.
        case discarding(OTLPExchange.Response, keepAlive: Bool)
        /// Answered early (413) or broken: dropping what still comes, closing at the end of the request.
        case draining
    }

    private let exchange: OTLPExchange
    private let registry: OTLPSourceRegistry
    private let limits: OTLPReceiver.Limits
    private let deliver: @Sendable (OTLPSourceStatus, [WireEvent]) -> Void
    private var state = State.waiting
    private var timer: Scheduled<Void>?
    private var peer = "unknown"
    private var peerHost = "unknown"

    init(
        exchange: OTLPExchange, registry: OTLPSourceRegistry, limits: OTLPReceiver.Limits,
        deliver: @escaping @Sendable (OTLPSourceStatus, [WireEvent]) -> Void
    ) {
        self.exchange = exchange
        self.registry = registry
        self.limits = limits
        self.deliver = deliver
    }

    func channelActive(context: ChannelHandlerContext) {
        if let address = context.channel.remoteAddress {
            peerHost = address.ipAddress ?? "?"
            peer = peerHost.contains(":") ? "[\(peerHost)]:\(address.port ?? 0)" : "\(peerHost):\(address.port ?? 0)"
        }
        arm(context, limits.requestTimeout, reason: "no complete request")
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            arm(context, limits.requestTimeout, reason: "the request did not complete")
            switch exchange.check(head) {
            case .accepted(let accepted):
                if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                    let interim = HTTPResponseHead(version: head.version, status: .continue)
                    context.writeAndFlush(wrapOutboundOut(.head(interim)), promise: nil)
                }
                let expected = head.headers.first(name: "content-length").flatMap(Int.init) ?? 0
                let buffer = context.channel.allocator.buffer(capacity: min(max(expected, 0), 1 << 20))
                state = .reading(accepted, buffer, keepAlive: head.isKeepAlive)
            case .refused(let response) where response.status == .payloadTooLarge:
                record(OTLPExchange.Outcome(response: response, problem: "declared body over the limit"))
                answerEarly(context, response)
            case .refused(let response):
                record(OTLPExchange.Outcome(response: response, problem: response.message))
                state = .discarding(response, keepAlive: head.isKeepAlive)
            }
        case .body(var chunk):
            guard case .reading(let accepted, var buffer, let keepAlive) = state else { return }
            guard buffer.readableBytes + chunk.readableBytes <= limits.maximumBodyBytes else {
                let response = exchange.tooLarge(accepted.format)
                record(OTLPExchange.Outcome(response: response, problem: "body over the limit"))
                answerEarly(context, response)
                return
            }
            state = .waiting  // so the buffer is uniquely referenced while it grows
            buffer.writeBuffer(&chunk)
            state = .reading(accepted, buffer, keepAlive: keepAlive)
        case .end:
            let current = state
            state = .waiting
            switch current {
            case .reading(let accepted, let buffer, let keepAlive):
                let outcome = exchange.complete(accepted, body: Array(buffer.readableBytesView))
                // Delivered before the answer goes out: a sender that has its 200 finds its events ingested.
                let sources = record(outcome)
                if let batch = outcome.batch {
                    for (group, source) in zip(batch.groups, sources) where !group.events.isEmpty {
                        deliver(source, group.events)
                    }
                }
                respond(context, outcome.response, keepAlive: keepAlive)
            case .discarding(let response, let keepAlive):
                respond(context, response, keepAlive: keepAlive)
            case .draining:
                state = .draining
                context.close(promise: nil)
            case .waiting:
                break
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard context.channel.isActive else { return }
        // Malformed HTTP (a bad request line, a broken chunk): answered 400 unless an answer already went out, then
        // closed, since the stream cannot be trusted any more. Anything else (a reset) just closes.
        guard error is HTTPParserError else { return context.close(promise: nil) }
        if case .draining = state { return context.close(promise: nil) }
        let response = OTLPExchange.status(.badRequest, "malformed HTTP request: \(error)")
        record(OTLPExchange.Outcome(response: response, problem: "malformed HTTP request"))
        state = .draining
        respond(context, response, keepAlive: false)
    }

    /// Answers before the request's end and reads off the rest, closing once it is in (or the timer fires).
    private func answerEarly(_ context: ChannelHandlerContext, _ response: OTLPExchange.Response) {
        state = .draining
        write(context, response, keepAlive: false)
        // Counted once already: the timer only bounds how long the rest is read off.
        arm(context, limits.requestTimeout, reason: nil)
    }

    private func respond(_ context: ChannelHandlerContext, _ response: OTLPExchange.Response, keepAlive: Bool) {
        let written = write(context, response, keepAlive: keepAlive)
        if keepAlive {
            arm(context, limits.idleTimeout, reason: nil)
        } else {
            timer?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in loopBound.value.close(promise: nil) }
        }
    }

    @discardableResult
    private func write(
        _ context: ChannelHandlerContext, _ response: OTLPExchange.Response, keepAlive: Bool
    ) -> EventLoopFuture<Void> {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        if let seconds = response.retryAfter { headers.add(name: "Retry-After", value: String(seconds)) }
        let head = HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var body = context.channel.allocator.buffer(capacity: response.body.count)
        body.writeBytes(response.body)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        return context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }

    /// Counts the outcome for its senders; returns their rows, one per group of an accepted batch.
    @discardableResult
    private func record(_ outcome: OTLPExchange.Outcome) -> [OTLPSourceStatus] {
        registry.record(outcome, peer: peer, host: peerHost, at: Date())
    }

    /// Closes the connection after `timeout` unless re-armed first; `reason` (when set) is counted for the client.
    private func arm(_ context: ChannelHandlerContext, _ timeout: Duration, reason: String?) {
        timer?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let (handler, context) = loopBound.value
            if let reason {
                let response = OTLPExchange.status(.requestTimeout, reason)
                handler.record(OTLPExchange.Outcome(response: response, problem: "closed: \(reason) within \(timeout)"))
            }
            handler.state = .draining
            context.close(promise: nil)
        }
    }
}
