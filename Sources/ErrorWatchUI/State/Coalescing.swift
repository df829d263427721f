/// How an action folds with the ones still waiting for the UI thread, so a frame's work stays bounded however
/// fast things happen. Each ``DashboardAction`` states its own rule (``DashboardAction/coalescing``); the
/// runtime's inbox applies the rule without knowing what the action means.
///
/// ```swift
/// DashboardAction.metricsSampled(sample).coalescing   // .latest(.metrics, key: .only): the newest sample wins
/// DashboardAction.keyPressed(.enter).coalescing        // .append: every key, in order
/// ```
///
/// What waits is handed over lane by lane, in ``Lane`` order; within a lane, in the order the keys first arrived.
public enum Coalescing: Sendable {
    /// Kept, in order of arrival, in the ``Lane/inOrder`` lane.
    case append
    /// An event for Logs: it joins the one bounded batch of events (the ``Lane/events`` lane), where the oldest
    /// give way to newer ones when it is full.
    case event(DashboardEvent)
    /// Only the latest action with the same key is kept, at the place its key first arrived in `lane`.
    case latest(Lane, key: Key)
    /// Combined with the action already waiting in `lane` by ``DashboardAction/merged(after:limit:)``.
    case merge(Lane)

    /// Where a waiting action is handed over; lanes are handed over in declaration order.
    public enum Lane: Int, Sendable, Hashable, CaseIterable, Comparable {
        /// The batch of events, first: everything after it sees the lines it refers to.
        case events
        /// Alerts, latest per fingerprint.
        case alerts
        /// Actions kept as they came (keys, ticks, theme and status messages, …).
        case inOrder
        /// Named statuses, latest per service and name.
        case statuses
        /// Issue counts, merged into one sample.
        case issues
        /// Handling reports, latest per sequence number.
        case handling
        /// The list of sources, the latest wins.
        case sources
        /// The count of forgotten sources, the latest wins.
        case forgottenSources
        /// Rows of the Traces view, latest per trace id.
        case traceRows
        /// Trace snapshots, latest per trace id.
        case traces
        /// What the header says about the store, the latest wins.
        case store
        /// The metrics sample, last, the latest wins.
        case metrics

        /// Lanes order as declared: the order the inbox hands them over.
        public static func < (lhs: Lane, rhs: Lane) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What makes two actions of a lane "the same thing", so the later replaces the earlier.
    public enum Key: Sendable, Hashable {
        /// The lane holds one action at most.
        case only
        /// Keyed by a name (an alert's fingerprint, a status's service and name).
        case name(String)
        /// Keyed by a number (a handling report's sequence number).
        case number(UInt64)
    }
}
