import ErrorWatchWire
import Foundation
import NIOCore

/// Reads one producer's connection: frames lines, decodes them, counts bad input, enforces the budgets.
///
/// A classic `ChannelInboundHandler` rather than an `NIOAsyncChannel`: each read is framed and decoded right
/// on the event loop, with no task hop per read and no unbounded buffering between NIO and a consumer task. The
/// framer holds at most one line (64 KiB), and NIO reads at most `maxMessagesPerRead` buffers per channel per
/// loop turn, so a flooding producer shares the loop fairly with the others until its budget closes it.
/// The handler lives on its channel's event loop only; it is not `Sendable`.
final class FeedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let registry: ProducerRegistry
    private let configuration: FeedListener.Configuration
    private let onBatch: @Sendable (FeedListener.Batch) -> Void
    /// The good events of the read in hand, handed on together when it ends (``handOn()``).
    private var decoded: [WireEvent] = []
    private var reader: LineReader
    private var framer: LineFramer
    private var status: ProducerStatus?
    private var identified = false
    private var closeReason: ProducerStatus.DisconnectReason?
    private var windowStart = NIODeadline.now()
    private var windowBytes = 0
    private var announcedIdentity = false
    private var eventsAtLastFlush: UInt64 = 0
    private var idleTask: Scheduled<Void>?
    /// Hands on a plain-text line the reader holds (a trace may follow it) once the connection is quiet.
    private var flushTask: Scheduled<Void>?
    /// Closes the connection when it stops mid-line for the configured time (slowloris).
    private var stallTask: Scheduled<Void>?
    /// When the unfinished line held now began (its first byte), for the line deadline; `nil` between lines.
    private var lineStartedAt: NIODeadline?
    /// The unfinished-line bytes last reported to the registry, so its lock is taken only when that changes.
    private var reportedPartialBytes = 0
    /// How quiet a connection must be for a held line to be handed on.
    static let heldLineDelay: TimeAmount = .milliseconds(150)

    init(
        registry: ProducerRegistry, configuration: FeedListener.Configuration,
        onBatch: @escaping @Sendable (FeedListener.Batch) -> Void
    ) {
        self.registry = registry
        self.configuration = configuration
        self.onBatch = onBatch
        self.reader = LineReader(
            format: configuration.format, maximumLineBytes: configuration.maximumLineBytes, inheritingTimes: false)
        self.framer = LineFramer(maximumLineBytes: configuration.maximumLineBytes)
    }

    func channelActive(context: ChannelHandlerContext) {
        let peer = Self.describe(context.channel.remoteAddress)
        let arrival = registry.connect(channel: context.channel, peer: peer)
        guard let status = arrival.status else {
            context.close(promise: nil)
            return
        }
        if let evicted = arrival.evicted {
            // Every slot was taken: the connection that held an unfinished line the longest makes room.
            FeedListener.close(evicted.channel, reason: .evictedForNewConnection(heldSeconds: evicted.heldSeconds))
        }
        self.status = status
        scheduleIdleCheck(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard var status, closeReason == nil else { return }
        let buffer = unwrapInboundIn(data)
        status.bytesReceived += UInt64(buffer.readableBytes)
        self.status = status
        if let reason = rateExceeded(adding: buffer.readableBytes) {
            close(context: context, reason: reason)
            return
        }
        let budget = configuration.errorBudget ?? .max
        let received = Date()
        let hadPartialLine = framer.hasPartialLine
        var finishedLines = 0
        do {
            try buffer.withUnsafeReadableBytes { bytes in
                try framer.feed(bytes) { frame in
                    finishedLines += 1
                    switch frame {
                    case .line(let line):
                        var overBudget = false
                        reader.read(line, receivedAt: received) { result in
                            if !deliver(result, status: &status), status.errors.badLines > budget { overBudget = true }
                        }
                        if overBudget { throw BudgetExceeded() }
                    case .tooLong(let count):
                        _ = deliver(.failure(.lineTooLong(byteCount: count)), status: &status)
                        if status.errors.badLines > budget { throw BudgetExceeded() }
                    }
                }
            }
            self.status = status
            handOn()
        } catch {
            self.status = status
            // The good events before the line over the budget are kept.
            handOn()
            close(context: context, reason: .errorBudgetExceeded(badLines: status.errors.badLines))
        }
        // A line left unfinished by this read began in it when the read started between lines or finished one.
        let lineStart: NIODeadline? =
            framer.hasPartialLine ? (hadPartialLine && finishedLines == 0 ? lineStartedAt : .now()) : nil
        let lineChanged = lineStart != lineStartedAt
        lineStartedAt = lineStart
        // Most reads end on a newline, before and after: nothing changed, so the shared registry is not locked.
        let pendingBytes = framer.pendingByteCount
        if pendingBytes != reportedPartialBytes || lineChanged {
            reportedPartialBytes = pendingBytes
            if let (victim, bytes) = registry.holdPartialLine(
                status.id, bytes: pendingBytes, startedAt: lineStart, lineChanged: lineChanged)
            {
                // The unfinished lines of all connections are over the budget: the largest holder goes (maybe this).
                FeedListener.close(victim, reason: .partialLineBudgetExceeded(bytes: bytes))
                registry.publishStatistics()
            }
        }
        if let lineStart, lineChanged || stallTask == nil { scheduleStallCheck(context: context, lineStart: lineStart) }
    }

    /// Closes the connection if the line that began at `lineStart` is still unfinished when the deadline passes,
    /// however many bytes of it trickled in meanwhile.
    private func scheduleStallCheck(context: ChannelHandlerContext, lineStart: NIODeadline) {
        guard let timeout = configuration.stalledLineTimeout else { return }
        let limit = TimeAmount(timeout)
        stallTask?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        stallTask = context.eventLoop.scheduleTask(deadline: lineStart + limit) {
            let (handler, context) = loopBound.value
            handler.stallTask = nil
            guard handler.closeReason == nil, handler.framer.hasPartialLine, handler.lineStartedAt == lineStart
            else { return }
            handler.registry.countStalled()
            handler.close(context: context, reason: .stalledMidLine(seconds: Int(limit.nanoseconds / 1_000_000_000)))
        }
    }

    /// Takes one result of the reader: an event to hand on with the rest of its read (the first that names its
    /// producer identifies the connection), a bad line to the counts. Whether it was an event.
    private func deliver(_ result: Result<WireEvent, WireError>, status: inout ProducerStatus) -> Bool {
        switch result {
        case .success(let event):
            status.eventsReceived += 1
            if !identified, event.serviceName != nil || event.pid != nil {
                identified = true
                status.serviceName = event.serviceName
                status.pid = event.pid
                status.hostName = event.hostName
            }
            decoded.append(event)
            return true
        case .failure(let problem):
            status.errors.count(problem)
            status.lastError = problem
            return false
        }
    }

    /// Hands the events decoded since the last call to `onBatch`, in one call.
    private func handOn() {
        guard !decoded.isEmpty, let status else { return }
        onBatch(FeedListener.Batch(producer: status.id, events: decoded))
        // Not kept at its size: fifty connections each holding room for a read's events would cost megabytes.
        decoded = []
    }

    private struct BudgetExceeded: Error {}

    func channelReadComplete(context: ChannelHandlerContext) {
        scheduleHeldLineFlush(context: context)
        guard var status else { return }
        if status.eventsReceived > eventsAtLastFlush {
            status.lastEventAt = Date()
            eventsAtLastFlush = status.eventsReceived
        }
        self.status = status
        // Tell `onStatus` once the producer has named itself; later counts are only in the snapshot.
        let announce = identified && !announcedIdentity
        if announce { announcedIdentity = true }
        registry.update(status, notify: announce)
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleTask?.cancel()
        flushTask?.cancel()
        stallTask?.cancel()
        guard var status else { return }
        if closeReason == nil || closeReason == .closedByPeer {
            reader.flush { _ = deliver($0, status: &status) }
            self.status = status
            handOn()
        }
        if framer.hasPartialLine { status.errors.truncated += 1 }
        if status.bytesReceived == 0, closeReason != .idle { status.errors.idleNoData += 1 }
        status.state = .disconnected(closeReason ?? .closedByPeer)
        self.status = status
        registry.update(status, notify: true)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if closeReason == nil { closeReason = .failed(String(describing: error)) }
        context.close(promise: nil)
    }

    /// Marks why the listener closes this connection, then closes it.
    func close(context: ChannelHandlerContext, reason: ProducerStatus.DisconnectReason) {
        guard closeReason == nil else { return }
        closeReason = reason
        context.close(promise: nil)
    }

    /// Adds bytes to the current one-second window; the reason to close when the window is over the limit.
    private func rateExceeded(adding count: Int) -> ProducerStatus.DisconnectReason? {
        guard let limit = configuration.maximumBytesPerSecond else { return nil }
        let now = NIODeadline.now()
        if now - windowStart >= .seconds(1) {
            windowStart = now
            windowBytes = 0
        }
        windowBytes += count
        return windowBytes > limit ? .rateLimitExceeded(bytesPerSecond: limit) : nil
    }

    private func scheduleHeldLineFlush(context: ChannelHandlerContext) {
        flushTask?.cancel()
        flushTask = nil
        guard reader.hasPendingEvent, closeReason == nil else { return }
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        flushTask = context.eventLoop.scheduleTask(in: Self.heldLineDelay) {
            let handler = loopBound.value
            guard var status = handler.status, handler.closeReason == nil else { return }
            handler.reader.flush { _ = handler.deliver($0, status: &status) }
            handler.status = status
            handler.handOn()
            handler.registry.update(status, notify: false)
        }
    }

    private func scheduleIdleCheck(context: ChannelHandlerContext) {
        guard let timeout = configuration.idleTimeout else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleTask = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let (handler, context) = loopBound.value
            guard var status = handler.status, handler.closeReason == nil, status.bytesReceived == 0 else { return }
            status.errors.idleNoData += 1
            handler.status = status
            handler.close(context: context, reason: .idle)
        }
    }

    private static func describe(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        switch address {
        case .unixDomainSocket: return address.pathname.map { "unix:\($0)" } ?? "unix"
        default: return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
        }
    }
}
