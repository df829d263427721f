import DequeModule
import ErrorWatchUI
import Synchronization

/// Where the app's concurrent feeds post dashboard actions for the one thread that owns the state.
///
/// Posting never blocks on the UI: it appends under a short lock and wakes the UI thread once per batch.
/// Between two drains, at most `eventCapacity` events are kept for display (the oldest give way and are
/// counted in ``sampledOut``); counts never depend on this, because the `Metrics` pane reads exact counters.
/// Only the latest metrics sample is kept.
public final class ActionInbox: Sendable {
    private struct Pending {
        var actions: [DashboardAction] = []
        var events: Deque<DashboardEvent> = []
        var metrics: MetricsSnapshot?
        var sampledOut: UInt64 = 0
        var isEmpty: Bool { actions.isEmpty && events.isEmpty && metrics == nil }
    }

    private let pending = Mutex(Pending())
    /// Not a closure in a `Mutex`: see ``Observer`` for why (a million posts once meant a million nested thunks).
    private let waker = Observer<Void>()
    /// Events kept for display between two drains.
    public let eventCapacity: Int

    public init(eventCapacity: Int = 4_096) {
        self.eventCapacity = max(1, eventCapacity)
    }

    /// Sets what wakes the UI thread when the inbox goes from empty to non-empty.
    public func setWaker(_ wake: @escaping @Sendable () -> Void) { waker.set { _ in wake() } }

    /// Posts an action.
    public func post(_ action: DashboardAction) {
        switch action {
        case .eventReceived(let event): post(event: event)
        case .metricsSampled(let snapshot): enqueue { $0.metrics = snapshot }
        default: enqueue { $0.actions.append(action) }
        }
    }

    /// Posts an event for the `Logs` pane.
    public func post(event: DashboardEvent) {
        enqueue { p in
            if p.events.count >= eventCapacity {
                p.events.removeFirst()
                p.sampledOut += 1
            }
            p.events.append(event)
        }
    }

    private func enqueue(_ body: (inout Pending) -> Void) {
        let wasEmpty = pending.withLock { p in
            let wasEmpty = p.isEmpty
            body(&p)
            return wasEmpty
        }
        if wasEmpty { waker.notify(()) }
    }

    /// Takes everything posted so far: events first, as one batch, then other actions in order, then the
    /// latest metrics sample.
    public func drain() -> [DashboardAction] {
        let taken = pending.withLock { p in
            defer {
                p.actions.removeAll(keepingCapacity: true)
                p.events.removeAll(keepingCapacity: true)
                p.metrics = nil
            }
            return p
        }
        var result: [DashboardAction] = []
        if !taken.events.isEmpty { result.append(.eventsReceived(Array(taken.events))) }
        result += taken.actions
        if let metrics = taken.metrics { result.append(.metricsSampled(metrics)) }
        return result
    }

    /// Events that gave way to newer ones before the UI could show them.
    public var sampledOut: UInt64 { pending.withLock { $0.sampledOut } }

    /// Whether nothing is waiting.
    public var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
