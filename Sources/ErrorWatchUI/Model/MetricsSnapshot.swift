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
    /// Counts per error type, in display order (the Metrics pane numbers them 1…9 for the type filter): the most
    /// frequent types, at most a thousand.
    public var errorsByType: [TypeCount]
    /// Errors of the types not in ``errorsByType`` (counted exactly, together).
    public var otherTypeErrors: Int = 0
    /// Counts per category; missing categories count 0.
    public var errorsByCategory: [ErrorCategory: Int]
    /// Errors nobody classified (log lines, producers that sent no category), shown as `—` after the categories.
    public var unclassifiedErrors: Int = 0
    /// Errors per second over the last 60 one-second buckets, oldest first.
    public var errorRatePerSecond: [Int]
    /// What the producers record, local swift-metrics and remote `metric` events alike: one entry per metric name
    /// and service, the most recently updated first as sampled (the Metrics pane holds its rows still while it has
    /// the focus).
    public var series: [MetricSeries]
    /// Events the dashboard's subscriptions dropped under load.
    public var droppedEvents: UInt64
    /// Subscriptions currently listening to the stream.
    public var listenerCount: Int
    /// The service map: calls from one service to another found in the spans received, by caller then callee.
    public var serviceEdges: [ServiceEdge] = []
    /// The chart of the series a chart view shows (the runtime sends the one last opened), `nil` before one opens.
    public var chart: MetricChart?

    /// A snapshot; every field defaults to empty.
    public init(
        totalErrors: Int = 0, errorsByType: [TypeCount] = [], errorsByCategory: [ErrorCategory: Int] = [:],
        errorRatePerSecond: [Int] = [], series: [MetricSeries] = [], droppedEvents: UInt64 = 0,
        listenerCount: Int = 0
    ) {
        self.totalErrors = totalErrors
        self.errorsByType = errorsByType
        self.errorsByCategory = errorsByCategory
        self.errorRatePerSecond = errorRatePerSecond
        self.series = series
        self.droppedEvents = droppedEvents
        self.listenerCount = listenerCount
    }

    /// An empty snapshot, before the first sample.
    public static let empty = MetricsSnapshot()
}

