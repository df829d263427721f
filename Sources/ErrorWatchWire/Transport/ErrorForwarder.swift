import ErrorStreaming
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Sends an ``ErrorStream``'s events (and log records) as NDJSON to a listener, never blocking the app.
///
/// From the stream it forwards every error event as an `error` line and every ``HandlingReport`` (what a
/// forwarding ``ErrorHandler`` root reports after the descent) as a `handling` line, always after the `error`
/// line it is about.
///
/// Events wait in a bounded queue; when it is full the *newest* event is dropped and counted: the oldest
/// events of a burst are usually its cause, and keeping them keeps the queue's order simple. While the listener
/// is down the forwarder reconnects with exponential backoff; queued events go out once it is back.
///
/// Forwarding is built to cost the app little under load. The stream is read by polling on one event loop,
/// with no task to wake per event; lines are written at most every ``Configuration/flushInterval`` (25 ms by
/// default, less than one frame of the dashboard, which draws 30 a second), or at once when a full batch of log
/// lines waits. A busy moment therefore costs one wake-up of the loop, one poll of the stream and one socket write
/// per batch rather than per line, and the encoding happens there, off the threads that add errors.
///
/// ```swift
/// let forwarder = ErrorForwarder(
///     endpoint: try Endpoint(parsing: "unix:/tmp/ew.sock"), source: SourceInfo(serviceName: "shop"), stream: stream)
/// forwarder.start()
/// …
/// await forwarder.shutdown()
/// ```
public final class ErrorForwarder: Sendable {
    /// Queue size and reconnection timing.
    public struct Configuration: Sendable, Hashable {
        /// Lines that may wait for the listener; beyond this, new events are dropped.
        public var queueCapacity: Int
        /// The first wait before reconnecting.
        public var initialBackoff: Duration
        /// The longest wait between reconnection attempts.
        public var maximumBackoff: Duration
        /// Lines written to the socket in one write; a queue holding this many is written without waiting for
        /// ``flushInterval``.
        public var batchSize: Int
        /// The longest a line waits to be written while fewer than ``batchSize`` are queued; lines that arrive
        /// meanwhile go out in the same write. Zero writes every line as soon as it is queued.
        public var flushInterval: Duration

        /// Creates a configuration: 4,096 queued lines, backoff from 100 ms doubling to 5 s, batches of 128
        /// lines written at least every 25 ms.
        ///
        /// 25 ms keeps an error's trip to the dashboard under one of its frames (33 ms) while a busy app pays
        /// for one wake-up and one write per 25 ms rather than per 5 ms: on the ShopServer, pinned and
        /// saturated, 0.8% less CPU per request than 5 ms (`docs/benchmarks-shop.md`).
        public init(
            queueCapacity: Int = 4096, initialBackoff: Duration = .milliseconds(100),
            maximumBackoff: Duration = .seconds(5), batchSize: Int = 128, flushInterval: Duration = .milliseconds(25)
        ) {
            precondition(queueCapacity > 0 && batchSize > 0, "queue capacity and batch size must be positive")
            precondition(flushInterval >= .zero, "the flush interval must not be negative")
            self.queueCapacity = queueCapacity
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.batchSize = batchSize
            self.flushInterval = flushInterval
        }

        /// The waits between reconnection attempts: ``initialBackoff`` doubling up to ``maximumBackoff``, without
        /// jitter (a forwarder reconnects to its own dashboard, not to a crowd's server).
        var backoff: Backoff {
            .exponential(initial: initialBackoff, multiplier: 2, maximum: maximumBackoff, jitter: 0)
        }
    }

    /// Counters, read at any time.
    public struct Statistics: Sendable, Hashable {
        /// Lines waiting in the queue.
        public var queued = 0
        /// Lines written to the socket.
        public var sent: UInt64 = 0
        /// Events lost: queue full, the stream's own buffer overflowed, unencodable, or a write that failed.
        public var dropped: UInt64 = 0
        /// Connections made after a failed attempt or a lost connection.
        public var reconnects: UInt64 = 0
        /// Whether a connection is open now.
        public var connected = false
    }

    /// The listener's address.
    public let endpoint: Endpoint
    /// The producer written into every line.
    public let source: SourceInfo
    /// Queue and backoff settings.
    public let configuration: Configuration
    /// The one event loop that connects, polls the stream, encodes and writes, so that none of it runs
    /// concurrently with itself.
    let loop: any EventLoop
    let state: Mutex<ForwarderState>
    private let stream: ErrorStream?
    private let pollers = Mutex<StreamPollers?>(nil)
    private let encoder: WireEncoder

    /// The forwarder's listeners on its stream, touched on ``loop`` only (the lock makes that checkable, and costs
    /// one uncontended acquisition per drain).
    private struct StreamPollers: Sendable {
        let events: ErrorStream.EventPoller
        let reports: ErrorStream.ReportPoller
        /// Events taken and drops already counted, for the accounting at shutdown.
        var taken: UInt64 = 0
        var droppedCounted: UInt64 = 0
        var reportDropsCounted: UInt64 = 0
        var ended = false
    }

    /// Creates a forwarder; nothing is sent until ``start()``.
    ///
    /// - Parameters:
    ///   - endpoint: the listener (`errorwatch --listen`).
    ///   - source: service name, pid and host written into every line.
    ///   - stream: the stream whose events are forwarded; `nil` to send only what ``send(_:)`` is given.
    ///   - configuration: queue and backoff.
    ///   - eventLoopGroup: the loops to run on (the forwarder uses one of them); NIO's shared singleton group by
    ///     default.
    public init(
        endpoint: Endpoint, source: SourceInfo, stream: ErrorStream? = nil,
        configuration: Configuration = Configuration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.endpoint = endpoint
        self.source = source
        self.stream = stream
        self.configuration = configuration
        self.loop = eventLoopGroup.next()
        self.encoder = WireEncoder(source: source)
        self.state = Mutex(
            ForwarderState(
                capacity: configuration.queueCapacity, backoff: configuration.backoff,
                batchSize: configuration.batchSize, drainsAtOnce: configuration.flushInterval == .zero))
    }

    /// The counters now.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Subscribes to the stream (events added and handling reported from now on are forwarded) and starts
    /// connecting.
    ///
    /// The stream is read by polling on the forwarder's event loop, with no task of its own: the first event
    /// added after a drain calls back once, which schedules the next drain after the flush interval, and that
    /// drain takes everything the stream gathered meanwhile. A busy stream therefore costs one wake-up of the loop
    /// per flush interval, not one per event.
    public func start() {
        guard state.withLock({ $0.start() }) else { return }
        if let stream {
            // Reports first: a report made before the events poller is about an event below its first sequence,
            // which is then never waited for; every later report's event is at or above it.
            let news: @Sendable () -> Void = { [weak self] in self?.streamHasNews() }
            let reports = stream.reportPoller(
                bufferingPolicy: .bufferingOldest(configuration.queueCapacity), onAvailable: news)
            let events = stream.eventPoller(
                bufferingPolicy: .bufferingOldest(configuration.queueCapacity), onAvailable: news)
            state.withLock { $0.forwardedThrough = events.firstSequence &- 1 }
            pollers.withLock { $0 = StreamPollers(events: events, reports: reports) }
            if !events.notifyWhenAvailable() || !reports.notifyWhenAvailable() { streamHasNews() }
        }
        connect()
    }

    /// Called by a poller, on the thread that added an event or made a report: schedules the drain (or poll) that
    /// will take it.
    private func streamHasNews() {
        perform(state.withLock { $0.streamHasNews() })
    }

    /// Takes what the stream gathered into the queue, encoding each event and report; on ``loop`` only.
    ///
    /// Events the queue has no room for are not encoded: they are counted as dropped, as the queue would count
    /// them. Reports follow their events (see ``ForwarderState``). Returns what the queue asks for: a drain
    /// scheduled from here, which a caller that is not draining must perform.
    @discardableResult
    private func pollStream() -> ForwarderState.Action {
        loop.preconditionInEventLoop()
        return pollers.withLock { pollers -> ForwarderState.Action in
            guard var current = pollers, !current.ended else { return .none }
            var room = state.withLock { $0.capacity - $0.queue.count }
            var lines: [(line: [UInt8]?, sequence: UInt64)] = []
            // Lines are written into one scratch buffer and copied out at their exact size: an error's line is
            // typically 500-700 bytes, so a line of its own would be reallocated as it grew.
            var scratch: [UInt8] = []
            scratch.reserveCapacity(2048)
            let taken = current.events.poll(maximum: configuration.queueCapacity) { event in
                if room > 0 {
                    room -= 1
                    scratch.removeAll(keepingCapacity: true)
                    do {
                        try encoder.appendLine(for: event, to: &scratch)
                        lines.append((scratch.withUnsafeBufferPointer { Array($0) }, event.sequence))
                    } catch {
                        lines.append((nil, event.sequence))
                    }
                } else {
                    lines.append((nil, event.sequence))
                }
            }
            current.taken += UInt64(taken)
            var handlings: [(line: [UInt8], sequence: UInt64)] = []
            var unencodable: UInt64 = 0
            let now = Date()
            current.reports.poll { report in
                scratch.removeAll(keepingCapacity: true)
                do {
                    try encoder.appendHandlingLine(for: report, time: now, to: &scratch)
                    handlings.append((scratch.withUnsafeBufferPointer { Array($0) }, report.sequence))
                } catch {
                    unencodable += 1
                }
            }
            let droppedByEvents = current.events.droppedCount - current.droppedCounted
            let droppedByReports = current.reports.droppedCount - current.reportDropsCounted
            current.droppedCounted += droppedByEvents
            current.reportDropsCounted += droppedByReports
            let ended = current.events.isFinished
            current.ended = ended
            pollers = current
            return state.withLock { state -> ForwarderState.Action in
                state.statistics.dropped += droppedByEvents + droppedByReports + unencodable
                var actions: [ForwarderState.Action] = []
                if !lines.isEmpty { actions.append(state.enqueueEvents(lines)) }
                if !handlings.isEmpty { actions.append(state.enqueueHandlings(handlings)) }
                if ended { actions.append(state.eventsEnded()) }
                return actions.first { if case .none = $0 { false } else { true } } ?? .none
            }
        }
    }

    /// Asks the stream's pollers to call back when there is news; schedules a drain or poll at once when there is
    /// some already. On ``loop``, after a drain or poll has reset its schedule.
    private func rearm() {
        let news = pollers.withLock { pollers -> Bool in
            guard let current = pollers, !current.ended else { return false }
            return !current.events.notifyWhenAvailable() || !current.reports.notifyWhenAvailable()
        }
        if news { streamHasNews() }
    }

    /// A poll without a write (not connected, or the listener is not reading): takes the stream's news into the
    /// queue, where what does not fit is dropped and counted.
    private func pollWithoutWriting() {
        // Connected meanwhile: what was taken asks for the drain that writes it.
        let action = pollStream()
        state.withLock { $0.pollScheduled = false }
        perform(action)
        rearm()
    }

    /// Drops the forwarder's listeners on the stream; events added since its first one that it never took are
    /// counted as dropped, so that sent + dropped accounts for every event added while it listened.
    private func stopPolling() {
        guard let current = pollers.withLock({ pollers -> StreamPollers? in
            defer { pollers = nil }
            return pollers
        }) else { return }
        current.events.cancel()
        current.reports.cancel()
        if let added = stream?.statistics.added, added >= current.events.firstSequence {
            let delivered = added - current.events.firstSequence + 1
            let accounted = current.taken + current.droppedCounted
            if delivered > accounted { state.withLock { $0.statistics.dropped += delivered - accounted } }
        }
        _ = state.withLock { $0.eventsEnded() }
    }

    /// Queues one event (a log record, a metric); returns at once. Dropped and counted when the queue is full.
    public func send(_ event: WireEvent) {
        var event = event
        event.serviceName = event.serviceName ?? source.serviceName
        event.pid = event.pid ?? source.pid
        event.hostName = event.hostName ?? source.host
        if let line = try? WireEncoder().encode(event) { enqueue(line) } else { countDropped() }
    }

    /// Queues one encoded line (JSON and newline); returns at once. Dropped and counted when the queue is full.
    public func enqueue(_ line: [UInt8]) {
        perform(state.withLock { $0.enqueue(line) })
    }

    /// Starts draining (or polling) on the forwarder's loop, now or after the flush interval, when the state
    /// machine says so (outside the lock).
    private func perform(_ action: ForwarderState.Action) {
        switch action {
        case .drain(let channel): loop.execute { self.drain(channel) }
        case .drainLater(let channel):
            loop.scheduleTask(in: TimeAmount(configuration.flushInterval)) { self.drain(channel) }
        case .pollLater:
            loop.scheduleTask(in: TimeAmount(configuration.flushInterval)) { self.pollWithoutWriting() }
        case .none, .close: break
        }
    }

    /// Stops forwarding: takes what the stream holds at this moment and ends the subscription, writes what is
    /// queued if connected (giving the listener `gracePeriod` to take it), then closes. Lines not written by then
    /// count as dropped, and so do events added after the last poll, so that sent + dropped equals the events
    /// added while the forwarder listened.
    ///
    /// - Parameter gracePeriod: the longest the listener is waited for, so that an app exiting while the
    ///   dashboard is stalled exits in bounded time. Two seconds by default: the dashboard takes about 200,000
    ///   lines a second (README, "Watching other processes"), so a full default queue of 4,096 lines needs about
    ///   20 ms of it; give more when the dashboard shares a crowded machine and every line must arrive.
    public func shutdown(gracePeriod: Duration = .seconds(2)) async {
        let polled: EventLoopFuture<Void> = loop.submit {
            self.pollStream()
            self.stopPolling()
        }
        try? await polled.get()
        let (channel, reconnect) = state.withLock { $0.beginShutdown() }
        reconnect?.cancel()
        if let channel {
            let deadline = loop.scheduleTask(in: TimeAmount(gracePeriod)) { channel.close(promise: nil) }
            let flushed: EventLoopFuture<Void> = loop.flatSubmit {
                self.drain(channel, ignoringWritability: true) ?? self.loop.makeSucceededVoidFuture()
            }
            try? await flushed.get()
            deadline.cancel()
            try? await channel.close()
        }
        state.withLock { $0.finishShutdown() }
    }

    func countDropped() { state.withLock { $0.statistics.dropped += 1 } }

    /// Takes the stream's news, then writes queued lines while the channel is writable, each batch copied into
    /// one buffer and written with one write; returns the last write's future. On ``loop`` only.
    @discardableResult
    func drain(_ channel: any Channel, ignoringWritability: Bool = false) -> EventLoopFuture<Void>? {
        pollStream()
        var last: EventLoopFuture<Void>?
        while ignoringWritability || channel.isWritable {
            let batch = state.withLock { $0.takeBatch(for: channel, maximum: configuration.batchSize) }
            guard let batch, !batch.isEmpty else { break }
            var buffer = channel.allocator.buffer(capacity: batch.reduce(0) { $0 + $1.count })
            for line in batch { buffer.writeBytes(line) }
            let promise = loop.makePromise(of: Void.self)
            channel.writeAndFlush(buffer, promise: promise)
            let count = UInt64(batch.count)
            promise.futureResult.whenComplete { result in
                self.state.withLock { state in
                    switch result {
                    case .success: state.statistics.sent += count
                    case .failure: state.statistics.dropped += count
                    }
                }
            }
            last = promise.futureResult
        }
        let writable = ignoringWritability || channel.isWritable
        state.withLock { $0.blocked = !writable }
        rearm()
        return last
    }
}
