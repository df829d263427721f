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
/// Forwarding is built to cost the app little under load: lines are written at most every
/// ``Configuration/flushInterval`` (5 ms by default), or at once when a full batch waits, so a busy moment
/// costs one wake-up of the event loop and one socket write per batch rather than per line, and the stream
/// subscriptions take what arrived in that time in one go.
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
        /// lines written at least every 5 ms.
        public init(
            queueCapacity: Int = 4096, initialBackoff: Duration = .milliseconds(100),
            maximumBackoff: Duration = .seconds(5), batchSize: Int = 128, flushInterval: Duration = .milliseconds(5)
        ) {
            precondition(queueCapacity > 0 && batchSize > 0, "queue capacity and batch size must be positive")
            precondition(flushInterval >= .zero, "the flush interval must not be negative")
            self.queueCapacity = queueCapacity
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.batchSize = batchSize
            self.flushInterval = flushInterval
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
    let group: any EventLoopGroup
    let state: Mutex<ForwarderState>
    private let stream: ErrorStream?
    private let streamTasks = Mutex<[Task<Void, Never>]>([])

    /// Creates a forwarder; nothing is sent until ``start()``.
    ///
    /// - Parameters:
    ///   - endpoint: the listener (`errorwatch --listen`).
    ///   - source: service name, pid and host written into every line.
    ///   - stream: the stream whose events are forwarded; `nil` to send only what ``send(_:)`` is given.
    ///   - configuration: queue and backoff.
    ///   - eventLoopGroup: the loops to run on; NIO's shared singleton group by default.
    public init(
        endpoint: Endpoint, source: SourceInfo, stream: ErrorStream? = nil,
        configuration: Configuration = Configuration(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.endpoint = endpoint
        self.source = source
        self.stream = stream
        self.configuration = configuration
        self.group = eventLoopGroup
        self.state = Mutex(
            ForwarderState(
                capacity: configuration.queueCapacity, backoff: configuration.initialBackoff,
                batchSize: configuration.batchSize, drainsAtOnce: configuration.flushInterval == .zero))
    }

    /// The counters now.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Subscribes to the stream (events added and handling reported from now on are forwarded) and starts
    /// connecting.
    public func start() {
        guard state.withLock({ $0.start() }) else { return }
        if let stream {
            // Reports first: a report made before the events subscription is about an event below its first
            // sequence, which is then never waited for; every later report's event is at or above it.
            let reports = stream.handlingReports(bufferingPolicy: .bufferingOldest(configuration.queueCapacity))
            let events = stream.events(bufferingPolicy: .bufferingOldest(configuration.queueCapacity))
            state.withLock { $0.forwardedThrough = events.firstSequence &- 1 }
            let tasks = [forwardEvents(events), forwardReports(reports)]
            streamTasks.withLock { $0 = tasks }
        }
        connect()
    }

    /// Reads the stream's events a batch at a time: the events in hand are encoded, then queued under one lock,
    /// then the task waits for the drain that writes them, so that what arrives meanwhile is taken in one wake-up.
    private func forwardEvents(_ events: ErrorStream.Events) -> Task<Void, Never> {
        let encoder = WireEncoder(source: source)
        return Task { [self] in
            var iterator = events.makeAsyncIterator()
            var droppedByStream: UInt64 = 0
            var taken: UInt64 = 0
            var lines: [(line: [UInt8]?, sequence: UInt64)] = []
            while let event = await iterator.next() {
                countDrops(iterator.droppedCount, since: &droppedByStream)
                taken += 1
                lines.append((try? encoder.encode(event), event.sequence))
                guard iterator.bufferedCount == 0 || lines.count >= configuration.batchSize else { continue }
                let (action, caughtUp) = state.withLock { ($0.enqueueEvents(lines), $0.takeCaughtUp()) }
                perform(action)
                caughtUp?.resume()
                lines.removeAll(keepingCapacity: true)
                await untilDrained()
            }
            countDrops(iterator.droppedCount, since: &droppedByStream)
            // The subscription ended (cancelled by shutdown, or the stream finished). Every event added since it
            // began was taken, or dropped by its buffer (counted above), or never reached: count those too, so
            // that sent + dropped accounts for every event.
            if let added = stream?.statistics.added, added >= events.firstSequence {
                let delivered = added - events.firstSequence + 1
                let unread = delivered > taken + droppedByStream ? delivered - taken - droppedByStream : 0
                if unread > 0 { state.withLock { $0.statistics.dropped += unread } }
            }
            let (action, caughtUp) = state.withLock { ($0.eventsEnded(), $0.takeCaughtUp()) }
            perform(action)
            caughtUp?.resume()
        }
    }

    /// Reads the stream's handling reports as ``forwardEvents(_:)`` reads its events.
    private func forwardReports(_ reports: ErrorStream.HandlingReports) -> Task<Void, Never> {
        let encoder = WireEncoder(source: source)
        return Task { [self] in
            var iterator = reports.makeAsyncIterator()
            var droppedByStream: UInt64 = 0
            var lines: [(line: [UInt8], sequence: UInt64)] = []
            while let report = await iterator.next() {
                countDrops(iterator.droppedCount, since: &droppedByStream)
                if let line = try? encoder.encode(encoder.handlingEvent(for: report, time: Date())) {
                    lines.append((line, report.sequence))
                } else {
                    countDropped()
                }
                guard iterator.bufferedCount == 0 || lines.count >= configuration.batchSize else { continue }
                perform(state.withLock { $0.enqueueHandlings(lines) })
                lines.removeAll(keepingCapacity: true)
                await untilDrained()
            }
        }
    }

    /// Waits until the next drain has run on the event loop (the one that writes what was just queued), or returns
    /// at once when none is scheduled: not connected, or shutting down. A cancelled task never waits.
    ///
    /// The wait costs no timer of its own: the drain is already scheduled, after the flush interval.
    private func untilDrained() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    Task.isCancelled ? false : state.waitForDrain(continuation)
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            resume(state.withLock { $0.takeDrainWaiters() })
        }
    }

    /// Waits until the events task has taken the stream's event `target` (or ended), for at most two seconds.
    private func catchUp(to target: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            guard state.withLock({ $0.waitForCatchUp(to: target, continuation) }) else {
                continuation.resume()
                return
            }
            group.next().scheduleTask(in: .seconds(2)) { self.state.withLock { $0.takeCatchUp() }?.resume() }
        }
    }

    /// Resumes tasks waiting in ``untilDrained()``; outside the lock.
    func resume(_ waiters: [CheckedContinuation<Void, Never>]) {
        for waiter in waiters { waiter.resume() }
    }

    /// Adds the drops a stream subscription's buffering policy made since the last call to the statistics.
    private func countDrops(_ total: UInt64, since counted: inout UInt64) {
        guard total > counted else { return }
        let lost = total - counted
        counted = total
        state.withLock { $0.statistics.dropped += lost }
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

    /// Starts draining on the channel's loop, now or after the flush interval, when the state machine says so
    /// (outside the lock).
    private func perform(_ action: ForwarderState.Action) {
        switch action {
        case .drain(let channel): channel.eventLoop.execute { self.drain(channel) }
        case .drainLater(let channel):
            channel.eventLoop.scheduleTask(in: TimeAmount(configuration.flushInterval)) { self.drain(channel) }
        case .none, .close: break
        }
    }

    /// Stops forwarding: ends the stream subscription, writes what is queued if connected (giving the listener
    /// two seconds to take it), then closes. Lines still queued after that count as dropped.
    ///
    /// The stream tasks first catch up with what the stream holds at this moment (for at most two seconds), so that
    /// events added just before shutdown are sent, not cut off; events added after that are counted as dropped.
    public func shutdown() async {
        let tasks = streamTasks.withLock { $0 }
        resume(state.withLock { $0.beginStopping() })
        if let added = stream?.statistics.added, !tasks.isEmpty { await catchUp(to: added) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        let action = state.withLock { $0.beginShutdown() }
        resume(action.waiters)
        action.reconnect?.cancel()
        if let channel = action.channel {
            let deadline = channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
            let flushed: EventLoopFuture<Void> = channel.eventLoop.flatSubmit {
                self.drain(channel, ignoringWritability: true) ?? channel.eventLoop.makeSucceededVoidFuture()
            }
            try? await flushed.get()
            deadline.cancel()
            try? await channel.close()
        }
        state.withLock { $0.finishShutdown() }
    }

    func countDropped() { state.withLock { $0.statistics.dropped += 1 } }

    /// Writes queued lines while the channel is writable, each batch copied into one buffer and written with one
    /// write; returns the last write's future.
    @discardableResult
    func drain(_ channel: any Channel, ignoringWritability: Bool = false) -> EventLoopFuture<Void>? {
        var last: EventLoopFuture<Void>?
        while ignoringWritability || channel.isWritable {
            let batch = state.withLock { $0.takeBatch(for: channel, maximum: configuration.batchSize) }
            guard let batch, !batch.isEmpty else { break }
            var buffer = channel.allocator.buffer(capacity: batch.reduce(0) { $0 + $1.count })
            for line in batch { buffer.writeBytes(line) }
            let promise = channel.eventLoop.makePromise(of: Void.self)
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
        resume(
            state.withLock { state in
                state.blocked = !writable
                return state.takeDrainWaiters()
            })
        return last
    }
}
