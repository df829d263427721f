import DequeModule

#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date, without the rest of Foundation (about 7 MB of resident memory on Linux)
#else
    import Foundation
#endif

/// The pure state machine behind ``ErrorStream``: one shared append-only log of events indexed by sequence
/// number (a deque of ``LogSegment``s), and a cursor per listener.
///
/// Nothing here locks, suspends or resumes. Every mutating event returns what must happen next (waiters to
/// resume), and the stream performs that after releasing its lock (DESIGN rule 1).
///
/// - `add` appends once: its cost does not depend on the number of listeners, except for handing back the
///   waiters it woke.
/// - A take is O(1) under the lock: it hands the listener a range of one segment, which the listener's iterator
///   then reads outside the lock.
/// - A listener's *backlog* is the part of the log between its cursor and the end. Bounded policies are applied
///   lazily, when the listener takes a batch: `.bufferingNewest(n)` skips to the newest `n`, `.bufferingOldest(n)`
///   keeps the oldest `n` and skips the rest. Skipped events are counted as dropped, so for every listener the
///   gaps in `sequence` equal its drops.
/// - The log forgets entries no listener can still read and that the replay history no longer needs. A listener
///   under `.bufferingNewest(n)` never needs more than the newest `n`; one under `.bufferingOldest(n)` that is
///   more than `n` behind gets its `n` events *parked* (copied aside), after which it pins nothing. So memory is
///   bounded behind a listener that never iterates, unless its policy is `.unbounded`.
@usableFromInline
struct BroadcastLog {
    typealias Waiter = Wakeup

    /// One registered listener.
    struct Listener {
        /// The next sequence number this listener has neither taken nor dropped.
        var cursor: UInt64
        let policy: ErrorStream.BufferingPolicy
        /// `.bufferingOldest` only: the oldest `n` events, copied aside when the listener fell more than `n`
        /// behind. While parked, everything from `cursor` to the end of the log is dropped for this listener.
        var parked: LogSegment?
    }

    /// Events a listener may read outside the lock: sequences `lower..<upper` of `segment`.
    @usableFromInline
    struct Batch: Sendable {
        let segment: LogSegment
        let lower: UInt64
        let upper: UInt64
    }

    /// What a listener's attempt to take a batch produced.
    enum TakeResult {
        /// A batch to read; `dropped` events were skipped by the policy since the last take.
        case taken(Batch, dropped: UInt64)
        /// Nothing to read yet: suspend and call `suspend(_:waiter:cancelled:)`.
        case wait
        /// The listener is gone (unregistered, cancelled, or drained after `finish()`).
        case finished
    }

    /// Events per log segment: the most one take hands out, and the granularity of trimming.
    static let segmentCapacity = 512
    /// Minimum growth of the log between two trims, so that trimming (O(listeners)) stays rare.
    static let trimSlack = 256

    private var segments: Deque<LogSegment> = []
    /// The oldest sequence number any listener or replay may still read.
    private(set) var logStart: UInt64 = 1
    /// The sequence number the next added event gets.
    private(set) var nextSequence: UInt64 = 1
    private var listeners: [UInt64: Listener] = [:]
    private var waiting: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0
    private var trimAt: UInt64
    let historyCapacity: Int
    private(set) var finished = false
    private(set) var added: UInt64 = 0
    private(set) var addedAfterFinish: UInt64 = 0
    /// Drops already charged to listeners (the rest are computed on demand, see `pendingDrops`).
    private var chargedDrops: UInt64 = 0

    init(historyCapacity: Int) {
        self.historyCapacity = max(0, historyCapacity)
        self.trimAt = UInt64(self.historyCapacity + Self.trimSlack)
    }

    var listenerCount: Int { listeners.count }
    var waiterCount: Int { waiting.count }
    /// Events held in memory by the log's segments (trimmed segments still read by an iterator not included).
    var retainedCount: Int { segments.first.map { Int(nextSequence - $0.base) } ?? 0 }

    /// Total drops: those charged at takes plus those the policies imply for backlogs not yet taken.
    var dropped: UInt64 {
        listeners.values.reduce(chargedDrops) { $0 + pendingDrops($1) }
    }

    // MARK: Producer

    /// Appends an event and hands back its sequence number and the waiters to resume (outside the lock).
    mutating func add(
        _ error: any Error, context: ErrorContext, location: CapturedLocation, timestamp: Date
    ) -> (sequence: UInt64?, woken: [Waiter]) {
        guard !finished else {
            addedAfterFinish += 1
            return (nil, [])
        }
        let sequence = append(error, context: context, location: location, timestamp: timestamp)
        return (sequence, takeWaiters())
    }

    /// Appends errors that arrived together, in order, with consecutive sequence numbers: the first one's, or `nil`
    /// after `finish()` (they are counted and ignored), and the waiters to resume once the lock is released.
    mutating func add(
        contentsOf errors: [(error: any Error, context: ErrorContext)], location: CapturedLocation, timestamp: Date
    ) -> (first: UInt64?, woken: [Waiter]) {
        guard !finished else {
            addedAfterFinish += UInt64(errors.count)
            return (nil, [])
        }
        let first = nextSequence
        for (error, context) in errors { append(error, context: context, location: location, timestamp: timestamp) }
        return (first, errors.isEmpty ? [] : takeWaiters())
    }

    /// Appends one event to the log; its sequence number.
    @discardableResult
    private mutating func append(
        _ error: any Error, context: ErrorContext, location: CapturedLocation, timestamp: Date
    ) -> UInt64 {
        if segments.last?.isFull ?? true {
            segments.append(LogSegment(base: nextSequence, capacity: Self.segmentCapacity))
        }
        let sequence = nextSequence
        segments[segments.count - 1].append(
            ErrorEvent(error: error, sequence: sequence, timestamp: timestamp, context: context, addedAt: location))
        nextSequence += 1
        added += 1
        if nextSequence - logStart >= trimAt { trim() }
        return sequence
    }

    /// Every waiting listener, to resume after the lock is released: new events are there to read.
    private mutating func takeWaiters() -> [Waiter] {
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
            chargedDrops += pendingDrops(listener)
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
        var count = UInt64(max(0, min(replay, historyCapacity)))
        count = min(count, nextSequence - logStart)
        switch policy {
        case .unbounded: break
        case .bufferingNewest(let n), .bufferingOldest(let n): count = min(count, UInt64(max(0, n)))
        }
        if finished && count == 0 { return nil }
        let id = nextID
        nextID += 1
        listeners[id] = Listener(cursor: nextSequence - count, policy: policy, parked: nil)
        return id
    }

    /// The next sequence number the listener has neither taken nor dropped; `nil` for an unknown listener.
    func cursor(of id: UInt64) -> UInt64? { listeners[id]?.cursor }

    /// Removes a listener, charging the drops its policy implied, and hands back its waiter if it had one.
    mutating func unregister(_ id: UInt64) -> Waiter? {
        if let listener = listeners.removeValue(forKey: id) {
            chargedDrops += pendingDrops(listener)
        }
        return waiting.removeValue(forKey: id)
    }

    /// Hands the listener its next batch (a range of one segment) and advances its cursor past it.
    mutating func take(_ id: UInt64) -> TakeResult {
        guard var listener = listeners[id] else { return .finished }
        let next = nextSequence
        if let parked = listener.parked {
            let dropped = next - listener.cursor
            listener.parked = nil
            listener.cursor = next
            listeners[id] = listener
            chargedDrops += dropped
            return .taken(Batch(segment: parked, lower: parked.base, upper: parked.end), dropped: dropped)
        }
        let (lower, upper, skipped) = window(listener, next: next)
        guard lower < upper else {
            if !finished { return .wait }
            listeners[id] = nil
            chargedDrops += skipped
            return .finished
        }
        let previousCursor = listener.cursor
        var segment = segment(containing: lower)
        var batchUpper = min(upper, segment.end)
        if case .bufferingOldest = listener.policy, skipped > 0 {
            // Over-full: deliver the oldest n, drop the rest. Copy them aside if they span segments.
            if batchUpper < upper {
                segment = LogSegment(base: lower, copying: (lower..<upper).map { self.segment(containing: $0)[$0] })
                batchUpper = upper
            }
            listener.cursor = next
        } else {
            listener.cursor = batchUpper
        }
        listeners[id] = listener
        chargedDrops += skipped
        if previousCursor <= logStart && nextSequence - logStart > UInt64(historyCapacity + Self.trimSlack) {
            trim()
        }
        return .taken(Batch(segment: segment, lower: lower, upper: batchUpper), dropped: skipped)
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

    /// The segment holding `sequence`, which must lie in `logStart..<nextSequence`.
    private func segment(containing sequence: UInt64) -> LogSegment {
        segments[Int((sequence - segments[0].base) / UInt64(Self.segmentCapacity))]
    }

    /// The part of the log the listener may read now, and how many events its policy skips to get there.
    private func window(_ listener: Listener, next: UInt64) -> (lower: UInt64, upper: UInt64, skipped: UInt64) {
        let cursor = listener.cursor
        switch listener.policy {
        case .unbounded:
            return (cursor, next, 0)
        case .bufferingNewest(let n):
            let limit = UInt64(max(0, n))
            let lower = next - cursor > limit ? next - limit : cursor
            return (lower, next, lower - cursor)
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
        if listener.parked != nil { return nextSequence - listener.cursor }
        return window(listener, next: nextSequence).skipped
    }

    /// The oldest sequence the listener may still read. Parks an over-full `.bufferingOldest` listener.
    private mutating func lowestNeeded(by id: UInt64, _ listener: Listener) -> UInt64 {
        let next = nextSequence
        guard listener.parked == nil else { return next }
        switch listener.policy {
        case .unbounded:
            return listener.cursor
        case .bufferingNewest:
            return window(listener, next: next).lower
        case .bufferingOldest(let n):
            let limit = UInt64(max(0, n))
            guard limit > 0 else { return next }  // reads nothing, ever
            guard next - listener.cursor > limit else { return listener.cursor }
            let kept = listener.cursor..<(listener.cursor + limit)
            let parked = LogSegment(base: kept.lowerBound, copying: kept.map { segment(containing: $0)[$0] })
            listeners[id]?.parked = parked
            listeners[id]?.cursor = kept.upperBound
            return next
        }
    }

    /// Forgets the segments no listener and no replay can still read. O(listeners); called rarely.
    private mutating func trim() {
        var lowest = nextSequence - min(UInt64(historyCapacity), nextSequence - logStart)
        for (id, listener) in listeners {
            lowest = min(lowest, lowestNeeded(by: id, listener))
        }
        logStart = max(logStart, lowest)
        while let first = segments.first, first.isFull, first.end <= logStart {
            segments.removeFirst()
        }
        let retained = nextSequence - logStart
        trimAt = max(retained * 2, retained + UInt64(Self.trimSlack), UInt64(historyCapacity + Self.trimSlack))
    }
}
