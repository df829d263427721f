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
        /// Lines written to the socket per batch before flushing.
        public var batchSize: Int

        /// Creates a configuration: 4,096 queued lines, backoff from 100 ms doubling to 5 s, batches of 128.
        public init(
            queueCapacity: Int = 4096, initialBackoff: Duration = .milliseconds(100),
            maximumBackoff: Duration = .seconds(5), batchSize: Int = 128
        ) {
            precondition(queueCapacity > 0 && batchSize > 0, "queue capacity and batch size must be positive")
            self.queueCapacity = queueCapacity
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.batchSize = batchSize
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
        self.state = Mutex(ForwarderState(capacity: configuration.queueCapacity, backoff: configuration.initialBackoff))
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

    private func forwardEvents(_ events: ErrorStream.Events) -> Task<Void, Never> {
        let encoder = WireEncoder(source: source)
        return Task { [self] in
            var iterator = events.makeAsyncIterator()
            var droppedByStream: UInt64 = 0
            while let event = await iterator.next() {
                countDrops(iterator.droppedCount, since: &droppedByStream)
                let line = (try? encoder.encode(event)).map { ByteBuffer(bytes: $0) }
                perform(state.withLock { $0.enqueueEvent(line, sequence: event.sequence) })
            }
            perform(state.withLock { $0.eventsEnded() })
        }
    }

    private func forwardReports(_ reports: ErrorStream.HandlingReports) -> Task<Void, Never> {
        let encoder = WireEncoder(source: source)
        return Task { [self] in
            var iterator = reports.makeAsyncIterator()
            var droppedByStream: UInt64 = 0
            while let report = await iterator.next() {
                countDrops(iterator.droppedCount, since: &droppedByStream)
                guard let line = try? encoder.encode(encoder.handlingEvent(for: report, time: Date())) else {
                    countDropped()
                    continue
                }
                perform(state.withLock { $0.enqueueHandling(ByteBuffer(bytes: line), sequence: report.sequence) })
            }
        }
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
        let buffer = ByteBuffer(bytes: line)
        perform(state.withLock { $0.enqueue(buffer) })
    }

    /// Starts draining on the channel's loop when the state machine says so (outside the lock).
    private func perform(_ action: ForwarderState.Action) {
        if case .drain(let channel) = action { channel.eventLoop.execute { self.drain(channel) } }
    }

    /// Stops forwarding: ends the stream subscription, writes what is queued if connected (giving the listener
    /// two seconds to take it), then closes. Lines still queued after that count as dropped.
    public func shutdown() async {
        let tasks = streamTasks.withLock { $0 }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        let action = state.withLock { $0.beginShutdown() }
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

    /// Writes queued lines in batches while the channel is writable; returns the last write's future.
    @discardableResult
    func drain(_ channel: any Channel, ignoringWritability: Bool = false) -> EventLoopFuture<Void>? {
        var last: EventLoopFuture<Void>?
        while ignoringWritability || channel.isWritable {
            let batch = state.withLock { $0.takeBatch(for: channel, maximum: configuration.batchSize) }
            guard let batch, !batch.isEmpty else { break }
            for line in batch.dropLast() { channel.write(line, promise: nil) }
            let promise = channel.eventLoop.makePromise(of: Void.self)
            channel.writeAndFlush(batch[batch.count - 1], promise: promise)
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
        return last
    }
}
