import DequeModule
import Foundation

/// The pure state machine behind ``ErrorStream``: one shared append-only log of events indexed by sequence
/// number, and a cursor per listener.
///
/// Nothing here locks, suspends or resumes. Every mutating event returns what must happen next (waiters to
/// resume), and the stream performs that after releasing its lock (DESIGN rule 1).
///
/// - `add` appends once: its cost does not depend on the number of listeners, except for handing back the
///   waiters it woke.
/// - A listener's *backlog* is the part of the log between its cursor and the end. Bounded policies are applied
///   lazily, when the listener takes a batch: `.bufferingNewest(n)` skips to the newest `n`, `.bufferingOldest(n)`
///   keeps the oldest `n` and skips the rest. Skipped events are counted as dropped, so for every listener the
///   gaps in `sequence` equal its drops.
/// - The log forgets entries no listener can still read and that the replay history no longer needs. A listener
///   under `.bufferingNewest(n)` never needs more than the newest `n`; one under `.bufferingOldest(n)` that is
///   more than `n` behind gets its `n` events *parked* (copied aside), after which it pins nothing. So memory is
///   bounded behind a listener that never iterates, unless its policy is `.unbounded`.
struct BroadcastLog {
    typealias Waiter = UnsafeContinuation<Void, Never>

    /// One registered listener.
    struct Listener {
        /// The next sequence number this listener has neither taken nor dropped.
        var cursor: UInt64
        let policy: ErrorStream.BufferingPolicy
        /// `.bufferingOldest` only: the oldest `n` events, copied aside when the listener fell more than `n`
        /// behind. While parked, everything from `cursor` to the end of the log is dropped for this listener.
        var parked: ContiguousArray<ErrorEvent>?
    }

    /// What a listener's attempt to take a batch produced.
    enum TakeResult: Equatable {
        /// Events were appended to the caller's buffer; `dropped` were skipped by the policy since the last take.
        case taken(dropped: UInt64)
        /// Nothing to read yet: suspend and call `suspend(_:waiter:)`.
        case wait
        /// The listener is gone (unregistered, cancelled, or drained after `finish()`).
        case finished
    }

    /// The most events one take copies for `.unbounded` and `.bufferingNewest` listeners.
    static let maximumBatch = 1024
    /// Minimum growth of the log between two trims, so that trimming (O(listeners)) stays rare.
    static let trimSlack = 256

    /// The retained events; `log[0]` has sequence `logStart`.
    private(set) var log: Deque<ErrorEvent> = []
    private(set) var logStart: UInt64 = 1
    private var listeners: [UInt64: Listener] = [:]
    private var waiting: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    private var trimAt: Int
    let historyCapacity: Int
    private(set) var finished = false
    private(set) var added: UInt64 = 0
    private(set) var addedAfterFinish: UInt64 = 0
    /// Drops already charged to listeners (the rest are computed on demand, see `pendingDrops`).
    private var chargedDrops: UInt64 = 0

    init(historyCapacity: Int) {
        self.historyCapacity = max(0, historyCapacity)
        self.trimAt = self.historyCapacity + Self.trimSlack
    }

    /// The sequence number the next added event gets.
    var nextSequence: UInt64 { logStart + UInt64(log.count) }
    var listenerCount: Int { listeners.count }
    var waiterCount: Int { waiting.count }

    /// Total drops: those charged at takes plus those the policies imply for backlogs not yet taken.
    var dropped: UInt64 {
        listeners.values.reduce(chargedDrops) { $0 + pendingDrops($1) }
    }

    // MARK: Producer

    /// Appends an event and hands back the waiters to resume (outside the lock).
    mutating func add(_ error: any Error, context: ErrorContext, timestamp: Date) -> [Waiter] {
        guard !finished else {
            addedAfterFinish += 1
            return []
        }
        log.append(ErrorEvent(error: error, sequence: nextSequence, timestamp: timestamp, context: context))
        added += 1
        if log.count >= trimAt { trim() }
        guard !waiting.isEmpty else { return [] }
        let woken = Array(waiting.values)
        waiting.removeAll(keepingCapacity: true)
        return woken
    }

    /// Marks the log finished and hands back every waiter. Listeners with nothing left are removed now; the
    /// others are removed when they have drained their backlog.
    mutating func finish() -> [Waiter] {
        guard !finished else { return [] }
        finished = true
        for (id, listener) in listeners where isCaughtUp(listener) {
            listeners[id] = nil
        }
        let woken = Array(waiting.values)
        waiting.removeAll()
        return woken
    }

    // MARK: Listeners

    /// Registers a listener that reads every event added from now on, plus up to `replay` recent ones.
    /// Returns `nil` after `finish()` when there is nothing to replay.
    mutating func register(policy: ErrorStream.BufferingPolicy, replay: Int) -> UInt64? {
        let next = nextSequence
        var count = UInt64(max(0, min(replay, historyCapacity, log.count)))
        switch policy {
        case .unbounded: break
        case .bufferingNewest(let n), .bufferingOldest(let n): count = min(count, UInt64(max(0, n)))
        }
        if finished && count == 0 { return nil }
        let id = nextID
        nextID += 1
        listeners[id] = Listener(cursor: next - count, policy: policy, parked: nil)
        return id
    }

    /// Removes a listener, charging the drops its policy implied, and hands back its waiter if it had one.
    mutating func unregister(_ id: UInt64) -> Waiter? {
        if let listener = listeners.removeValue(forKey: id) {
            chargedDrops += pendingDrops(listener)
        }
        return waiting.removeValue(forKey: id)
    }

    /// Moves the listener's readable window into `buffer` (which the caller has emptied) and advances its cursor.
    mutating func take(_ id: UInt64, into buffer: inout ContiguousArray<ErrorEvent>) -> TakeResult {
        guard var listener = listeners[id] else { return .finished }
        let next = nextSequence
        var dropped: UInt64 = 0
        if let parked = listener.parked {
            buffer = parked
            dropped = next - listener.cursor
            listener.parked = nil
            listener.cursor = next
        } else {
            let pinnedLog = listener.cursor == logStart
            let (lower, upper, skipped) = window(listener, next: next)
            guard lower < upper else {
                if finished {
                    listeners[id] = nil
                    chargedDrops += skipped
                    return .finished
                }
                return .wait
            }
            buffer.reserveCapacity(Int(upper - lower))
            for sequence in lower..<upper {
                buffer.append(log[Int(sequence - logStart)])
            }
            dropped = skipped
            if case .bufferingOldest = listener.policy {
                listener.cursor = next
            } else {
                listener.cursor = upper
            }
            listeners[id] = listener
            chargedDrops += dropped
            if pinnedLog && log.count > historyCapacity + Self.trimSlack { trim() }
            return .taken(dropped: dropped)
        }
        listeners[id] = listener
        chargedDrops += dropped
        return .taken(dropped: dropped)
    }

    /// Stores the waiter of a listener that found nothing to take, or hands it back to be resumed at once when
    /// there is something to do after all (events arrived, finished, cancelled, unregistered).
    mutating func suspend(_ id: UInt64, waiter: Waiter, cancelled: Bool) -> Waiter? {
        guard let listener = listeners[id] else { return waiter }
        if cancelled {
            _ = unregister(id)
            return waiter
        }
        if finished || !isCaughtUp(listener) { return waiter }
        waiting[id] = waiter
        return nil
    }

    // MARK: Windows and trimming

    /// The part of the log the listener would take now, and how many events its policy skips to get there.
    private func window(_ listener: Listener, next: UInt64) -> (lower: UInt64, upper: UInt64, skipped: UInt64) {
        let cursor = listener.cursor
        switch listener.policy {
        case .unbounded:
            return (cursor, min(next, cursor + UInt64(Self.maximumBatch)), 0)
        case .bufferingNewest(let n):
            let limit = UInt64(max(0, n))
            let lower = next - cursor > limit ? next - limit : cursor
            return (lower, min(next, lower + UInt64(Self.maximumBatch)), lower - cursor)
        case .bufferingOldest(let n):
            let upper = min(next, cursor + UInt64(max(0, n)))
            return (cursor, upper, next - upper)
        }
    }

    private func isCaughtUp(_ listener: Listener) -> Bool {
        guard listener.parked == nil else { return false }
        let w = window(listener, next: nextSequence)
        return w.lower >= w.upper
    }

    /// Drops the listener's policy implies for its backlog but that no take has charged yet.
    private func pendingDrops(_ listener: Listener) -> UInt64 {
        let next = nextSequence
        if listener.parked != nil { return next - listener.cursor }
        return window(listener, next: next).skipped
    }

    /// The oldest sequence the listener may still read. Parks an over-full `.bufferingOldest` listener.
    private mutating func lowestNeeded(by id: UInt64, _ listener: Listener, next: UInt64) -> UInt64 {
        guard listener.parked == nil else { return next }
        switch listener.policy {
        case .unbounded:
            return listener.cursor
        case .bufferingNewest:
            return window(listener, next: next).lower
        case .bufferingOldest(let n):
            let limit = UInt64(max(0, n))
            guard next - listener.cursor > limit else { return listener.cursor }
            let start = Int(listener.cursor - logStart)
            listeners[id]?.parked = ContiguousArray(log[start..<(start + Int(limit))])
            listeners[id]?.cursor = listener.cursor + limit
            return next
        }
    }

    /// Forgets the entries no listener and no replay can still need. O(listeners); called rarely.
    private mutating func trim() {
        let next = nextSequence
        var lowest = next - UInt64(min(historyCapacity, log.count))
        for (id, listener) in listeners {
            lowest = min(lowest, lowestNeeded(by: id, listener, next: next))
        }
        if lowest > logStart {
            log.removeFirst(Int(lowest - logStart))
            logStart = lowest
        }
        trimAt = max(log.count * 2, log.count + Self.trimSlack, historyCapacity + Self.trimSlack)
    }
}
