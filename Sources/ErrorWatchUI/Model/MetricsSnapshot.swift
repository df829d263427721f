import ErrorStreaming
import Foundation

/// A sample of the metrics backend, taken by the runtime at most a few times a second.
public struct MetricsSnapshot: Sendable, Hashable {
    /// One error type and how many errors of it were counted.
    public struct TypeCount: Sendable, Hashable {
        /// The error type, as in `DashboardEvent.typeName`.
        public var name: String
        /// Errors of that type so far.
        public var count: Int

        /// A type and its count.
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// Every error added to the stream so far.
    public var totalErrors: Int
    /// Counts per error type, in display order (the Metrics pane numbers them 1…9 for the type filter).
    public var errorsByType: [TypeCount]
    /// Counts per category; missing categories count 0.
    public var errorsByCategory: [ErrorCategory: Int]
    /// Errors per second over the last 60 one-second buckets, oldest first.
    public var errorRatePerSecond: [Int]
    /// Successful and failed runs per flow name.
    public var flowSuccesses: [String: Int]
    /// Failed runs per flow name.
    public var flowFailures: [String: Int]
    /// Median login latency, if any logins were timed.
    public var loginLatencyP50: Duration?
    /// 95th-percentile login latency.
    public var loginLatencyP95: Duration?
    /// Events the dashboard's subscriptions dropped under load.
    public var droppedEvents: UInt64
    /// Subscriptions currently listening to the stream.
    public var listenerCount: Int

    /// A snapshot; every field defaults to empty.
    public init(
        totalErrors: Int = 0, errorsByType: [TypeCount] = [], errorsByCategory: [ErrorCategory: Int] = [:],
        errorRatePerSecond: [Int] = [], flowSuccesses: [String: Int] = [:], flowFailures: [String: Int] = [:],
        loginLatencyP50: Duration? = nil, loginLatencyP95: Duration? = nil, droppedEvents: UInt64 = 0,
        listenerCount: Int = 0
    ) {
        self.totalErrors = totalErrors
        self.errorsByType = errorsByType
        self.errorsByCategory = errorsByCategory
        self.errorRatePerSecond = errorRatePerSecond
        self.flowSuccesses = flowSuccesses
        self.flowFailures = flowFailures
        self.loginLatencyP50 = loginLatencyP50
        self.loginLatencyP95 = loginLatencyP95
        self.droppedEvents = droppedEvents
        self.listenerCount = listenerCount
    }

    /// An empty snapshot, before the first sample.
    public static let empty = MetricsSnapshot()
}

/// The state of one simulated flow (login, session, sync) for the Flows pane.
public struct FlowStatus: Sendable, Hashable {
    /// How a flow is doing, which picks its colour.
    public enum Health: String, Sendable, Hashable, CaseIterable {
        case ok
        case degraded
        case failing
        case idle
    }

    /// The flow's name; the reducer upserts by it. Shown in the order flows first arrived.
    public var name: String
    /// What it is doing now: `logged in`, `retrying 2/5`, `offline`.
    public var state: String
    /// Picks the glyph and colour of the row.
    public var health: Health
    /// The last thing that happened: `success`, `401 session expired`.
    public var lastOutcome: String
    /// When the state last changed; shown as an age.
    public var lastChange: Date

    /// A flow status.
    public init(name: String, state: String, health: Health, lastOutcome: String, lastChange: Date) {
        self.name = name
        self.state = state
        self.health = health
        self.lastOutcome = lastOutcome
        self.lastChange = lastChange
    }
}
