import DequeModule
import ErrorStreaming
import ErrorWatchUI
import OrderedCollections
import Synchronization

/// Where the app's concurrent feeds post dashboard actions for the one thread that owns the state.
///
/// Posting never blocks on the UI: it appends under a short lock and wakes the UI thread once, when the inbox
/// stops being empty. What piles up between two drains is folded so the UI's work per frame stays bounded
/// however fast errors arrive:
/// - at most `eventCapacity` events are kept for display (the oldest give way and are counted in
///   ``sampledOut``); stream events are kept raw and only the kept ones are converted when drained;
/// - every other action is folded by the rule it states itself (``DashboardAction/coalescing``): kept in order,
///   latest per key (each alert, each status, the list of sources, the metrics sample), or merged (issue
///   samples). The inbox applies the rule without knowing what the action means.
///
/// Counts never depend on this folding: the `Metrics` pane reads exact counters.
///
/// With frame pacing on (a live UI that drains once a frame), feeds call ``untilTaken()`` between batches: a feed
/// whose posts are still waiting sleeps until the next drain, then takes everything its subscription gathered
/// meanwhile in one go. Under a flood that is one wake-up per feed per frame instead of one per event, for the
/// feed and for the thread adding to the stream.
public final class ActionInbox: Sendable {
    /// An event for the `Logs` pane, converted only if it survives until the drain.
    enum PendingEvent {
        case stream(ErrorEvent)
        case ready(DashboardEvent)

        var converted: DashboardEvent {
            switch self {
            case .stream(let event): DashboardEvent(event)
            case .ready(let event): event
            }
        }
    }

    private struct Pending {
        /// Actions of ``Coalescing/append``, in order.
        var actions: [DashboardAction] = []
        var events: Deque<PendingEvent> = []
        /// Actions of ``Coalescing/latest(_:key:)``, per lane (indexed by its raw value), latest per key in
        /// first-arrival order. Empty (no lanes allocated) until the first such action after a drain, so a frame
        /// of events alone allocates nothing here.
        var latest: [OrderedDictionary<Coalescing.Key, DashboardAction>] = []
        /// Actions of ``Coalescing/merge(_:)``, per lane: the one merged so far. Allocated like ``latest``.
        var merged: [DashboardAction?] = []
        /// How many keyed or merged actions wait in ``latest`` and ``merged``.
        var held = 0
        var sampledOut: UInt64 = 0
        /// How many times the inbox went from empty to holding something; kept across drains.
        var arrivals: UInt64 = 0
        /// Whether feeds wait in ``ActionInbox/untilTaken()`` for the next drain; kept across drains.
        var paced = false
        /// Feeds waiting for the next drain.
        var waiters: [CheckedContinuation<Void, Never>] = []

        /// The waiting feeds, to resume outside the lock; none wait afterwards.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return waiters
        }

        /// Keeps `action` as the latest for `key` in `lane`, in first-arrival order. Keys come from producers:
        /// between two drains at most ``ActionInbox/pendingKeyLimit`` new ones are kept per lane; later new ones are
        /// dropped (their next update gets through once the UI has drained).
        mutating func keep(_ action: DashboardAction, in lane: Coalescing.Lane, key: Coalescing.Key) {
            if latest.isEmpty { latest = Array(repeating: [:], count: Coalescing.Lane.allCases.count) }
            if let index = latest[lane.rawValue].index(forKey: key) {
                latest[lane.rawValue].values[index] = action
            } else if latest[lane.rawValue].count < ActionInbox.pendingKeyLimit {
                latest[lane.rawValue][key] = action
                held += 1
            }
        }

        /// Merges `action` into what waits in `lane`.
        mutating func merge(_ action: DashboardAction, in lane: Coalescing.Lane) {
            if merged.isEmpty { merged = Array(repeating: nil, count: Coalescing.Lane.allCases.count) }
            if merged[lane.rawValue] == nil { held += 1 }
            merged[lane.rawValue] = action.merged(after: merged[lane.rawValue], limit: ActionInbox.pendingKeyLimit)
        }

        var isEmpty: Bool { actions.isEmpty && events.isEmpty && held == 0 }
    }

    private let pending = Mutex(Pending())
    /// Not a closure in a `Mutex`: see ``Observer`` for why (a million posts once meant a million nested thunks).
    private let waker = Observer<Void>()
    /// Events kept for display between two drains.
    public let eventCapacity: Int
    /// New keys kept per lane between two drains (producers choose alert fingerprints, status names, handling
    /// sequences): beyond it the newest are dropped until the UI catches up, so a frame's work and the inbox's
    /// memory stay bounded. Also the number of evicted issue fingerprints kept.
    static let pendingKeyLimit = 1_024

    /// An empty inbox keeping at most `eventCapacity` events between drains.
    public init(eventCapacity: Int = 2_048) {
        self.eventCapacity = max(1, eventCapacity)
    }

    /// Sets what wakes the UI thread when the inbox goes from empty to non-empty.
    public func setWaker(_ wake: @escaping @Sendable () -> Void) { waker.set { _ in wake() } }

    /// Turns frame pacing on (a UI now drains the inbox every frame) or off (feeds never wait; any waiting feed is
    /// resumed now).
    public func setFramePacing(_ paced: Bool) {
        let waiters = pending.withLock { p in
            p.paced = paced
            return paced ? [] : p.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits, while frame pacing is on and something is pending, until the UI's next drain; otherwise, or once
    /// the task is cancelled, returns at once. A feed calls it when the batch in hand is posted.
    public func untilTaken() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = pending.withLock { p in
                    guard p.paced, !p.isEmpty, !Task.isCancelled else { return false }
                    p.waiters.append(continuation)
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            // Resumes every waiting feed, not only this one: a resumed feed just reads its next batch early.
            for waiter in pending.withLock({ $0.takeWaiters() }) { waiter.resume() }
        }
    }

    /// Posts an action; it is folded with those waiting by its ``DashboardAction/coalescing`` rule.
    public func post(_ action: DashboardAction) {
        enqueue { place(action, in: &$0) }
    }

    /// Posts actions in order under one lock, with at most one wake: as ``post(_:)`` one by one.
    public func post(contentsOf actions: [DashboardAction]) {
        guard !actions.isEmpty else { return }
        enqueue { p in for action in actions { place(action, in: &p) } }
    }

    /// Applies `action`'s folding rule to what is pending.
    private func place(_ action: DashboardAction, in p: inout Pending) {
        switch action.coalescing {
        case .append: p.actions.append(action)
        case .event(let event): append(.ready(event), to: &p)
        case .latest(let lane, let key): p.keep(action, in: lane, key: key)
        case .merge(let lane): p.merge(action, in: lane)
        }
    }

    /// Posts an event for the `Logs` pane.
    public func post(event: DashboardEvent) { append(.ready(event)) }

    /// Posts a stream event for the `Logs` pane; it is classified and converted only if it is still kept when the
    /// UI drains the inbox.
    public func post(streamEvent: ErrorEvent) { append(.stream(streamEvent)) }

    private func append(_ event: PendingEvent) {
        enqueue { append(event, to: &$0) }
    }

    private func append(_ event: PendingEvent, to p: inout Pending) {
        if p.events.count >= eventCapacity {
            p.events.removeFirst()
            p.sampledOut += 1
        }
        p.events.append(event)
    }

    /// Posts events for the `Logs` pane that one batch gathered, in order, under one lock and with at most one wake;
    /// `passedOver` more came before them in the batch and gave way there. Counted in ``sampledOut`` as if they had
    /// been posted one by one.
    func post(events: [PendingEvent], passedOver: Int = 0) {
        guard !events.isEmpty || passedOver > 0 else { return }
        enqueue { p in
            let skipped = max(0, events.count - eventCapacity)
            let overflow = min(p.events.count, max(0, p.events.count + events.count - skipped - eventCapacity))
            p.events.removeFirst(overflow)
            p.sampledOut += UInt64(passedOver + skipped + overflow)
            p.events.append(contentsOf: events.dropFirst(skipped))
        }
    }

    private func enqueue(_ body: (inout Pending) -> Void) {
        let wasEmpty = pending.withLock { p in
            let wasEmpty = p.isEmpty
            body(&p)
            if wasEmpty && !p.isEmpty { p.arrivals &+= 1 }
            return wasEmpty
        }
        if wasEmpty { waker.notify(()) }
    }

    /// Takes everything posted so far, lane by lane in ``Coalescing/Lane`` order: events first, as one batch, then
    /// alerts, then other actions in order, then statuses, issues, handling reports, and the latest sources and
    /// metrics sample.
    public func drain() -> [DashboardAction] {
        let taken = pending.withLock { p in
            let taken = p
            let (sampledOut, arrivals, paced) = (p.sampledOut, p.arrivals, p.paced)
            p = Pending()
            p.sampledOut = sampledOut
            p.arrivals = arrivals
            p.paced = paced
            return taken
        }
        for waiter in taken.waiters { waiter.resume() }
        var result: [DashboardAction] = []
        result.reserveCapacity(taken.actions.count + taken.held + 1)
        for lane in Coalescing.Lane.allCases {
            switch lane {
            case .events:
                if !taken.events.isEmpty { result.append(.eventsReceived(taken.events.map(\.converted))) }
            case .inOrder:
                result += taken.actions
            default:
                break
            }
            if !taken.latest.isEmpty { result += taken.latest[lane.rawValue].values }
            if !taken.merged.isEmpty, let merged = taken.merged[lane.rawValue] { result.append(merged) }
        }
        return result
    }

    /// Events that gave way to newer ones before the UI could show them.
    public var sampledOut: UInt64 { pending.withLock { $0.sampledOut } }

    /// Events waiting for the UI to drain them.
    public var pendingEventCount: Int { pending.withLock { $0.events.count } }

    /// What is waiting for the UI, as admission sees it (``RemoteIngest/hasRoom(for:)``).
    public struct Backlog: Sendable, Hashable {
        /// Whether anything is waiting to be drained.
        public var waiting: Bool
        /// Which arrival it is: how many times the inbox went from empty to non-empty. While `waiting` and this
        /// stays the same, the UI has not drained since.
        public var arrival: UInt64
    }

    /// Whether anything is waiting and since which arrival, read in one step.
    public var backlog: Backlog { pending.withLock { Backlog(waiting: !$0.isEmpty, arrival: $0.arrivals) } }

    /// Feeds waiting in ``untilTaken()`` for the next drain.
    package var waitingFeeds: Int { pending.withLock { $0.waiters.count } }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
