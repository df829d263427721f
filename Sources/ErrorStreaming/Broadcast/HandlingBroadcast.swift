import DequeModule

/// The pure state machine behind ``ErrorStream/handlingReports(bufferingPolicy:)``: a bounded queue of
/// ``HandlingReport``s per listener.
///
/// Like ``BroadcastLog``, nothing here locks, suspends or resumes: every mutating event returns the waiters to
/// resume, and the stream resumes them after releasing its lock (DESIGN rule 1).
///
/// Unlike events, reports are copied into each listener's queue as they arrive. A report exists only for an
/// error thrown into a handler tree, far rarer than `add`, so the shared log and its trimming would buy nothing
/// here. The buffering policy is applied on arrival, so a listener that never iterates holds at most `n` reports
/// (unless its policy is `.unbounded`), and every report a policy discards is counted as dropped.
struct HandlingBroadcast {
    typealias Waiter = Wakeup

    struct Listener {
        var queue: Deque<HandlingReport> = []
        let policy: ErrorStream.BufferingPolicy
        /// Reports discarded by the policy since the listener's last take.
        var dropped: UInt64 = 0
    }

    /// What a listener's attempt to take its queued reports produced.
    enum TakeResult {
        /// Reports to hand out, oldest first; `dropped` were discarded by the policy since the last take.
        case taken(Deque<HandlingReport>, dropped: UInt64)
        /// Nothing queued yet: suspend and call `suspend(_:waiter:cancelled:)`.
        case wait
        /// The listener is gone (unregistered, cancelled, or drained after `finish()`).
        case finished
    }

    private var listeners: [UInt64: Listener] = [:]
    private var waiting: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    private(set) var finished = false

    var listenerCount: Int { listeners.count }
    var waiterCount: Int { waiting.count }

    /// Queues a report for every listener and hands back the waiters to resume (outside the lock).
    mutating func report(_ report: HandlingReport) -> [Waiter] {
        guard !finished else { return [] }
        // In place, by index: iterating `keys` while writing would copy the dictionary on every report.
        var index = listeners.startIndex
        while index != listeners.endIndex {
            listeners.values[index].enqueue(report)
            listeners.formIndex(after: &index)
        }
        guard !waiting.isEmpty else { return [] }
        let woken = Array(waiting.values)
        waiting.removeAll(keepingCapacity: true)
        return woken
    }

    /// Marks the broadcast finished and hands back every waiter. Listeners with nothing left to take (no report,
    /// no drop to tell) are removed now; the others when they have taken it.
    mutating func finish() -> [Waiter] {
        guard !finished else { return [] }
        finished = true
        for (id, listener) in listeners where !listener.hasNews {
            listeners[id] = nil
        }
        let woken = Array(waiting.values)
        waiting.removeAll()
        return woken
    }

    /// Registers a listener for the reports made from now on; `nil` after `finish()`.
    mutating func register(policy: ErrorStream.BufferingPolicy) -> UInt64? {
        guard !finished else { return nil }
        let id = nextID
        nextID += 1
        listeners[id] = Listener(policy: policy)
        return id
    }

    /// Removes a listener and hands back its waiter if it had one. Reports it left unread are not drops (as for
    /// events): the listener chose to stop.
    mutating func unregister(_ id: UInt64) -> Waiter? {
        listeners[id] = nil
        return waiting.removeValue(forKey: id)
    }

    /// Hands the listener everything queued for it.
    mutating func take(_ id: UInt64) -> TakeResult {
        guard var listener = listeners[id] else { return .finished }
        guard listener.hasNews else {
            if !finished { return .wait }
            listeners[id] = nil
            return .finished
        }
        let result = TakeResult.taken(listener.queue, dropped: listener.dropped)
        listener.queue = []
        listener.dropped = 0
        listeners[id] = listener
        return result
    }

    /// Stores the waiter of a listener that found nothing to take, or hands it back to be resumed at once when
    /// there is something to do after all (reports arrived, finished, cancelled, unregistered).
    mutating func suspend(_ id: UInt64, waiter: Waiter, cancelled: Bool) -> Waiter? {
        guard let listener = listeners[id] else { return waiter }
        if cancelled {
            _ = unregister(id)
            return waiter
        }
        if finished || listener.hasNews { return waiter }
        waiting[id] = waiter
        return nil
    }
}

extension HandlingBroadcast.Listener {
    /// Whether a take would hand the listener something: reports, or drops it has not been told of.
    var hasNews: Bool { !queue.isEmpty || dropped > 0 }

    /// Appends under the policy: the newest `n` (dropping the oldest) or the oldest `n` (dropping the new one).
    mutating func enqueue(_ report: HandlingReport) {
        switch policy {
        case .unbounded:
            queue.append(report)
        case .bufferingNewest(let limit):
            guard limit > 0 else {
                dropped += 1
                return
            }
            queue.append(report)
            if queue.count > limit {
                queue.removeFirst()
                dropped += 1
            }
        case .bufferingOldest(let limit):
            guard queue.count < limit else {
                dropped += 1
                return
            }
            queue.append(report)
        }
    }
}
