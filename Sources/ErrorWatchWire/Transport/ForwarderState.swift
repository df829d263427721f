import ErrorStreaming
import NIOCore

/// The forwarder's state machine: the queue, the connection phase and the counters.
///
/// Pure and lock-protected by ``ErrorForwarder``; its events return what to do, and the forwarder does it
/// after unlocking.
///
/// It also keeps a stream's `handling` lines behind their `error` lines. The forwarder polls the stream's events,
/// then its handling reports, so a report made between the two polls can arrive before the event it is about. A
/// handling line is therefore *parked* until the event's line is queued (or skipped); the event's line and the
/// lines it releases are queued under one lock acquisition, so no other line can come between them out of order.
///
/// It also decides when the event loop is woken. A line queued while nothing is scheduled, or news from the stream,
/// asks for a drain *later* (after the forwarder's flush interval), so the lines of a busy moment are polled and
/// go out in one write and one wake-up instead of one each; a queue holding a full batch asks for a drain *now*.
/// While the forwarder cannot write (not connected, or the listener is not reading), news from the stream asks
/// for a *poll* later instead: the events are taken into the bounded queue, where what does not fit is dropped
/// and counted while it happens rather than held unseen.
struct ForwarderState {
    enum Phase {
        case idle, connecting
        case connected(any Channel)
        case waiting, shuttingDown, shutDown
    }

    /// What the forwarder does after an enqueue or a connection.
    enum Action {
        case none
        /// Write what is queued as soon as the channel's loop can.
        case drain(any Channel)
        /// Write what is queued after the flush interval.
        case drainLater(any Channel)
        /// Take the stream's news into the queue after the flush interval, without writing.
        case pollLater
        case close
    }

    /// Whether a drain is on its way to the channel's loop.
    enum DrainSchedule {
        case none, later, now
    }

    /// Queued lines, each a JSON object and its newline.
    var queue: CircularBuffer<[UInt8]>
    let capacity: Int
    var phase = Phase.idle
    var statistics = ErrorForwarder.Statistics()
    var drain = DrainSchedule.none
    /// A poll without a write is on its way (see ``Action/pollLater``).
    var pollScheduled = false
    /// The last drain stopped because the channel was not writable: the listener is not reading, so news from the
    /// stream is polled into the queue (and dropped there when it is full) instead of waiting for a drain.
    var blocked = false
    /// Queued lines that make a drain urgent: one full batch.
    let batchSize: Int
    /// `true` when every line asks for a drain at once (a flush interval of zero).
    let drainsAtOnce: Bool
    var retrying = false
    /// The waits between connection attempts.
    let backoff: Backoff
    /// Attempts that failed since the last connection; picks the next wait.
    var failedAttempts = 0
    var reconnectTask: Scheduled<Void>?
    /// The highest sequence number of the stream whose error event has been queued or skipped: handling lines
    /// for it and below go out at once.
    var forwardedThrough: UInt64 = 0
    /// Handling lines waiting for their error event, in arrival order; at most `capacity`.
    var parked: [(sequence: UInt64, line: [UInt8])] = []
    /// The lowest sequence in `parked` (`.max` when empty), so that an event releasing nothing costs no scan.
    var lowestParked = UInt64.max

    init(capacity: Int, backoff: Backoff, batchSize: Int = 128, drainsAtOnce: Bool = false) {
        self.queue = CircularBuffer(initialCapacity: min(capacity, 1024))
        self.capacity = capacity
        self.batchSize = batchSize
        self.drainsAtOnce = drainsAtOnce
        self.backoff = backoff
    }

    /// `true` the first time: the forwarder starts connecting.
    mutating func start() -> Bool {
        guard case .idle = phase else { return false }
        phase = .connecting
        return true
    }

    mutating func enqueue(_ line: [UInt8]) -> Action {
        accept(line)
        return drainIfConnected()
    }

    /// The stream has news for the forwarder's pollers: a drain later when connected and writable (none if one is
    /// on its way already), else a poll later (none if one is on its way, or shutting down).
    mutating func streamHasNews() -> Action {
        switch phase {
        case .shuttingDown, .shutDown: return .none
        case .connected(let channel) where !blocked:
            guard drain == .none else { return .none }
            if drainsAtOnce {
                drain = .now
                return .drain(channel)
            }
            drain = .later
            return .drainLater(channel)
        default:
            guard !pollScheduled else { return .none }
            pollScheduled = true
            return .pollLater
        }
    }

    /// Queues the line of the stream's error event `sequence` (`nil`: it could not be encoded and is counted as
    /// dropped), then the parked handling lines it releases.
    mutating func enqueueEvent(_ line: [UInt8]?, sequence: UInt64) -> Action {
        queueEvent(line, sequence: sequence)
        return drainIfConnected()
    }

    /// ``enqueueEvent(_:sequence:)`` for a batch of the stream's events, in order, under one lock acquisition.
    mutating func enqueueEvents(_ lines: [(line: [UInt8]?, sequence: UInt64)]) -> Action {
        for (line, sequence) in lines { queueEvent(line, sequence: sequence) }
        return drainIfConnected()
    }

    private mutating func queueEvent(_ line: [UInt8]?, sequence: UInt64) {
        if let line { accept(line) } else { statistics.dropped += 1 }
        forwardedThrough = max(forwardedThrough, sequence)
        releaseParked()
    }

    /// Queues the handling line about the stream's event `sequence` once that event's line is queued (or was
    /// skipped); parks it until then. Dropped and counted when the queue, or the parking space, is full.
    mutating func enqueueHandling(_ line: [UInt8], sequence: UInt64) -> Action {
        queueHandling(line, sequence: sequence)
        return drainIfConnected()
    }

    /// ``enqueueHandling(_:sequence:)`` for a batch of handling lines, under one lock acquisition.
    mutating func enqueueHandlings(_ lines: [(line: [UInt8], sequence: UInt64)]) -> Action {
        for (line, sequence) in lines { queueHandling(line, sequence: sequence) }
        return drainIfConnected()
    }

    private mutating func queueHandling(_ line: [UInt8], sequence: UInt64) {
        guard sequence > forwardedThrough else { return accept(line) }
        guard parked.count < capacity else {
            statistics.dropped += 1
            return
        }
        parked.append((sequence, line))
        lowestParked = min(lowestParked, sequence)
    }

    /// The events poller has ended (stream finished or forwarder shutting down): nothing will release the parked
    /// lines any more, so they are queued now.
    mutating func eventsEnded() -> Action {
        forwardedThrough = .max
        releaseParked()
        return drainIfConnected()
    }

    /// Queues, in arrival order, the parked lines whose event is now at or below `forwardedThrough`.
    private mutating func releaseParked() {
        guard lowestParked <= forwardedThrough else { return }
        var kept: [(sequence: UInt64, line: [UInt8])] = []
        for entry in parked {
            if entry.sequence <= forwardedThrough { accept(entry.line) } else { kept.append(entry) }
        }
        parked = kept
        lowestParked = kept.map(\.sequence).min() ?? .max
    }

    /// Appends a line to the queue, or counts it as dropped when shutting down or full.
    private mutating func accept(_ line: [UInt8]) {
        switch phase {
        case .shuttingDown, .shutDown:
            statistics.dropped += 1
            return
        default: break
        }
        guard queue.count < capacity else {
            statistics.dropped += 1
            return
        }
        queue.append(line)
        statistics.queued = queue.count
    }

    /// Asks for a drain when connected and lines wait: later for the first line, now once a batch is full.
    private mutating func drainIfConnected() -> Action {
        guard case .connected(let channel) = phase, !queue.isEmpty else { return .none }
        let urgent = drainsAtOnce || queue.count >= batchSize
        switch drain {
        case .now: return .none
        case .later where !urgent: return .none
        case .none where !urgent:
            drain = .later
            return .drainLater(channel)
        case .later, .none:
            drain = .now
            return .drain(channel)
        }
    }

    /// Up to `maximum` lines for the channel; `nil` or empty when there is nothing (the drain ends).
    mutating func takeBatch(for channel: any Channel, maximum: Int) -> [[UInt8]]? {
        switch phase {
        case .connected(let current) where current === channel: break
        case .shuttingDown: break
        default: return nil
        }
        guard !queue.isEmpty else {
            drain = .none
            return nil
        }
        let count = min(maximum, queue.count)
        var batch: [[UInt8]] = []
        batch.reserveCapacity(count)
        for _ in 0..<count { batch.append(queue.removeFirst()) }
        statistics.queued = queue.count
        return batch
    }

    mutating func connected(_ channel: any Channel) -> Action {
        guard case .connecting = phase else { return .close }
        phase = .connected(channel)
        statistics.connected = true
        if retrying { statistics.reconnects += 1 }
        retrying = false
        failedAttempts = 0
        drain = .now
        return .drain(channel)
    }

    /// `true` when the lost channel was the current one and the forwarder should reconnect.
    mutating func lost(_ channel: any Channel) -> Bool {
        guard case .connected(let current) = phase, current === channel else { return false }
        statistics.connected = false
        drain = .none
        blocked = false
        phase = .waiting
        return true
    }

    /// The wait before the next attempt (``backoff`` after one more failed attempt); `nil` when shutting down.
    mutating func nextBackoff() -> Duration? {
        switch phase {
        case .shuttingDown, .shutDown: return nil
        default: break
        }
        phase = .connecting
        retrying = true
        failedAttempts += 1
        return backoff.delay(afterAttempt: failedAttempts, random: 0)
    }

    /// Records the scheduled attempt; `true` when shutdown began meanwhile and it must be cancelled.
    mutating func reconnectScheduled(_ task: Scheduled<Void>) -> Bool {
        switch phase {
        case .shuttingDown, .shutDown: return true
        default:
            reconnectTask = task
            return false
        }
    }

    mutating func beginShutdown() -> (channel: (any Channel)?, reconnect: Scheduled<Void>?) {
        let channel: (any Channel)? = if case .connected(let channel) = phase { channel } else { nil }
        phase = .shuttingDown
        defer { reconnectTask = nil }
        return (channel, reconnectTask)
    }

    mutating func finishShutdown() {
        phase = .shutDown
        statistics.connected = false
        statistics.dropped += UInt64(queue.count + parked.count)
        queue.removeAll()
        parked.removeAll()
        lowestParked = .max
        statistics.queued = 0
    }
}
