import ErrorWatchIngest
import Foundation
import ErrorWatchWire
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Counters of one signal shared by every OTLP client, in items (log records, spans or data points) unless named
/// otherwise.
final class OTLPLoadCounters: Sendable {
    /// Requests answered, by kind of answer.
    let answered200 = Atomic<UInt64>(0)
    let answeredRefused = Atomic<UInt64>(0)
    let answeredOther = Atomic<UInt64>(0)
    /// Records in `200`s, minus those the answer's `partial_success` rejected.
    let accepted = Atomic<UInt64>(0)
    /// Requests answered `200` with nothing rejected: each adds one template's ``OTLPLoadTemplate/Yield`` to the
    /// dashboard.
    let acceptedWhole = Atomic<UInt64>(0)
    /// Records a `200`'s `partial_success` rejected.
    let partiallyRejected = Atomic<UInt64>(0)
    /// Records of requests answered `503` or `429` (the dashboard is behind): refused, to be sent again by an SDK.
    let refused = Atomic<UInt64>(0)
    /// Records of requests answered with another status, or lost with their connection.
    let failed = Atomic<UInt64>(0)
    /// Records of batches never sent: the client was still waiting for an answer when they fell due, or was
    /// backing off after a `Retry-After`.
    let notSent = Atomic<UInt64>(0)
    /// Connections lost while a request was in flight.
    let connectionFailures = Atomic<UInt64>(0)
    /// Microseconds from a request's last byte written to its answer's end, every request.
    let latencies = Mutex<[UInt32]>([])
}

/// One keep-alive OTLP/HTTP client: NIO's HTTP/1.1 client codec in front of ``OTLPLoadClientHandler``, posting its
/// signals' bodies in turn (`/v1/logs`, `/v1/traces`, `/v1/metrics`) at its share of the target rate.
struct OTLPLoadClient: Sendable {
    /// Sent through the pipeline to start sending (at `start`, until `stop`).
    struct Start: Sendable {
        var start: NIODeadline
        var stop: NIODeadline
    }

    let channel: any Channel
    /// Completed when the client has stopped and its last request is answered (or its connection is gone).
    let finished: EventLoopFuture<Void>

    /// What a client sends and how: request `n` is the template `templates[(n + client) % count]`, re-stamped,
    /// counted in the counters of the same index.
    struct Batch: Sendable {
        var templates: [OTLPLoadTemplate]
        var counters: [OTLPLoadCounters]
        var client: Int
        var gzip: Bool
        var host: String

        func slot(_ sequence: Int64) -> Int { Int((sequence + Int64(client)) % Int64(templates.count)) }

        /// Counts the requests `from..<to` as never sent.
        func notSent(_ from: Int64, _ to: Int64) {
            guard from < to else { return }
            for sequence in from..<to {
                let slot = slot(sequence)
                counters[slot].notSent.add(UInt64(templates[slot].items), ordering: .relaxed)
            }
        }

        /// The body of request `sequence`, gzip'ed when asked, and its slot.
        func request(_ sequence: Int64) -> (slot: Int, body: [UInt8]) {
            let slot = slot(sequence)
            let now = UInt64(Date().timeIntervalSince1970 * 1e9)
            let body = templates[slot].body(sequence: UInt64(sequence), now: now)
            return (slot, gzip ? OTLPLogsRequestBody.gzip(body) : body)
        }
    }

    static func connect(
        to endpoint: OTLPEndpoint, group: any EventLoopGroup, batch: Batch, batchesPerSecond: Double
    ) async throws -> OTLPLoadClient {
        let loop = group.next()
        let finished = loop.makePromise(of: Void.self)
        let interval = TimeAmount.nanoseconds(Int64(1e9 / batchesPerSecond))
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        OTLPLoadClientHandler(batch: batch, interval: interval, finished: finished))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port).get()
        return OTLPLoadClient(channel: channel, finished: finished.futureResult)
    }

    /// Sends from `start` until `stop`.
    func start(_ window: Start) { channel.pipeline.fireUserInboundEventTriggered(window) }
}

/// Sends one batch at a time on its connection, each when it falls due (`start + n × interval`); a batch that
/// fell due while the previous one was still unanswered, or while backing off after a `503`/`429` with
/// `Retry-After`, is not sent but counted (as an SDK's exporter would drop or delay it), so the load stays what
/// was asked rather than queueing. Lives on its channel's event loop only; not `Sendable`.
final class OTLPLoadClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let batch: OTLPLoadClient.Batch
    private let interval: TimeAmount
    private let finished: EventLoopPromise<Void>
    private var window: OTLPLoadClient.Start?
    /// Batches issued (sent or skipped) since the start.
    private var issued: Int64 = 0
    private var inFlight = false
    private var sentAt = NIODeadline.now()
    private var status: HTTPResponseStatus = .ok
    private var retryAfter: Int?
    private var answer: ByteBuffer?
    private var backoffUntil: NIODeadline?
    private var timer: Scheduled<Void>?
    private var done = false

    /// The slot (signal) of the request in flight.
    private var slot = 0
    private var counters: OTLPLoadCounters { batch.counters[slot] }

    init(batch: OTLPLoadClient.Batch, interval: TimeAmount, finished: EventLoopPromise<Void>) {
        self.batch = batch
        self.interval = interval
        self.finished = finished
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let start = event as? OTLPLoadClient.Start else { return context.fireUserInboundEventTriggered(event) }
        window = start
        sendIfDue(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status
            retryAfter = head.headers.first(name: "retry-after").flatMap(Int.init)
            answer = nil
        case .body(var chunk):
            if answer == nil { answer = chunk } else { answer!.writeBuffer(&chunk) }
        case .end:
            guard inFlight else { return }
            inFlight = false
            let micros = (NIODeadline.now() - sentAt).nanoseconds / 1_000
            counters.latencies.withLock { $0.append(UInt32(clamping: micros)) }
            let records = UInt64(batch.templates[slot].items)
            switch status {
            case .ok:
                counters.answered200.add(1, ordering: .relaxed)
                let bytes = answer.map { Array($0.readableBytesView) } ?? []
                let signal = batch.templates[slot].signal
                let rejected = UInt64(clamping: signal.rejected(inResponse: bytes) ?? 0)
                counters.accepted.add(records - min(rejected, records), ordering: .relaxed)
                counters.partiallyRejected.add(min(rejected, records), ordering: .relaxed)
                if rejected == 0 { counters.acceptedWhole.add(1, ordering: .relaxed) }
            case .serviceUnavailable, .tooManyRequests:
                counters.answeredRefused.add(1, ordering: .relaxed)
                counters.refused.add(records, ordering: .relaxed)
                if let retryAfter { backoffUntil = .now() + .seconds(Int64(retryAfter)) }
            default:
                counters.answeredOther.add(1, ordering: .relaxed)
                counters.failed.add(records, ordering: .relaxed)
            }
            sendIfDue(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        if inFlight {
            inFlight = false
            counters.connectionFailures.add(1, ordering: .relaxed)
            counters.failed.add(UInt64(batch.templates[slot].items), ordering: .relaxed)
        }
        finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Sends the batch due now, skipping (and counting) any that fell due while it could not send; or waits for
    /// the next one.
    private func sendIfDue(_ context: ChannelHandlerContext) {
        guard let window, !inFlight, !done else { return }
        let now = NIODeadline.now()
        guard now < window.stop else {
            // Batches that fell due before the stop but were never sent (behind, or backing off).
            let total = ((window.stop - window.start).nanoseconds + interval.nanoseconds - 1) / interval.nanoseconds
            batch.notSent(issued, total)
            issued = max(issued, total)
            return finish()
        }
        if let until = backoffUntil, now < until {
            return schedule(context, at: min(until, window.stop))
        }
        backoffUntil = nil
        let due = (now - window.start).nanoseconds / interval.nanoseconds + 1
        guard due > issued else { return schedule(context, at: window.start + interval * issued) }
        batch.notSent(issued, due - 1)
        issued = due
        send(context, sequence: due - 1)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.sendIfDue(context)
        }
    }

    private func send(_ context: ChannelHandlerContext, sequence: Int64) {
        let (slot, body) = batch.request(sequence)
        self.slot = slot
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: batch.host)
        headers.add(name: "Content-Type", value: "application/x-protobuf")
        headers.add(name: "Content-Length", value: String(body.count))
        if batch.gzip { headers.add(name: "Content-Encoding", value: "gzip") }
        let head = HTTPRequestHead(
            version: .http1_1, method: .POST, uri: batch.templates[slot].signal.path, headers: headers)
        inFlight = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        sentAt = .now()
    }

    private func finish() {
        guard !done else { return }
        done = true
        timer?.cancel()
        finished.succeed()
    }
}
