import NIOCore

/// The forwarder's state machine: the queue, the connection phase and the counters.
///
/// Pure and lock-protected by ``ErrorForwarder``; its events return what to do, and the forwarder does it
/// after unlocking.
struct ForwarderState {
    enum Phase {
        case idle, connecting
        case connected(any Channel)
        case waiting, shuttingDown, shutDown
    }

    /// What the forwarder does after an enqueue or a connection.
    enum Action {
        case none
        case drain(any Channel)
        case close
    }

    var queue: CircularBuffer<ByteBuffer>
    let capacity: Int
    var phase = Phase.idle
    var statistics = ErrorForwarder.Statistics()
    var drainScheduled = false
    var retrying = false
    let initialBackoff: Duration
    var backoff: Duration
    var reconnectTask: Scheduled<Void>?

    init(capacity: Int, backoff: Duration) {
        self.queue = CircularBuffer(initialCapacity: min(capacity, 1024))
        self.capacity = capacity
        self.initialBackoff = backoff
        self.backoff = backoff
    }

    /// `true` the first time: the forwarder starts connecting.
    mutating func start() -> Bool {
        guard case .idle = phase else { return false }
        phase = .connecting
        return true
    }

    mutating func enqueue(_ line: ByteBuffer) -> Action {
        switch phase {
        case .shuttingDown, .shutDown:
            statistics.dropped += 1
            return .none
        default: break
        }
        guard queue.count < capacity else {
            statistics.dropped += 1
            return .none
        }
        queue.append(line)
        statistics.queued = queue.count
        guard case .connected(let channel) = phase, !drainScheduled else { return .none }
        drainScheduled = true
        return .drain(channel)
    }

    /// Up to `maximum` lines for the channel; `nil` or empty when there is nothing (the drain ends).
    mutating func takeBatch(for channel: any Channel, maximum: Int) -> [ByteBuffer]? {
        switch phase {
        case .connected(let current) where current === channel: break
        case .shuttingDown: break
        default: return nil
        }
        guard !queue.isEmpty else {
            drainScheduled = false
            return nil
        }
        let count = min(maximum, queue.count)
        var batch: [ByteBuffer] = []
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
        backoff = initialBackoff
        drainScheduled = true
        return .drain(channel)
    }

    /// `true` when the lost channel was the current one and the forwarder should reconnect.
    mutating func lost(_ channel: any Channel) -> Bool {
        guard case .connected(let current) = phase, current === channel else { return false }
        statistics.connected = false
        drainScheduled = false
        phase = .waiting
        return true
    }

    /// The wait before the next attempt (doubling up to `maximum`); `nil` when shutting down.
    mutating func nextBackoff(maximum: Duration) -> Duration? {
        switch phase {
        case .shuttingDown, .shutDown: return nil
        default: break
        }
        phase = .connecting
        retrying = true
        let delay = backoff
        backoff = min(backoff * 2, maximum)
        return delay
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
        statistics.dropped += UInt64(queue.count)
        queue.removeAll()
        statistics.queued = 0
    }
}
