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
    /// Errors per second over the last 60 one-second buckets, oldest first.
    public var errorRatePerSecond: [Int]
    /// What the producers record, local swift-metrics and remote `metric` events alike: one entry per metric name
    /// and service, the most recently updated first.
    public var series: [MetricSeries]
    /// Events the dashboard's subscriptions dropped under load.
    public var droppedEvents: UInt64
    /// Subscriptions currently listening to the stream.
    public var listenerCount: Int

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

/// One metric as the `Metrics` pane shows it: a histogram or timer with its count and percentiles, a gauge with its
/// last value, or a counter with its total and rate.
public struct MetricSeries: Sendable, Hashable {
    /// What the values mean.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Observations (durations, sizes): count and percentiles.
        case histogram
        /// The latest reading.
        case gauge
        /// A running total.
        case counter
    }

    /// The metric's name, for example `http.server.duration`.
    public var name: String
    /// The producing service; `nil` for the dashboard's own process.
    public var service: String?
    /// Histogram, gauge or counter.
    public var kind: Kind
    /// The unit values are in (`ms`, `s`, `ns`, `By`, `1`…); durations are formatted as such.
    public var unit: String?
    /// Observations (histograms) or updates (gauges, counters) so far.
    public var count: Int
    /// The latest value: a gauge's reading, a counter's total, a histogram's last observation.
    public var value: Double
    /// Counter increments per second over the last minute; `nil` for other kinds.
    public var ratePerSecond: Double?
    /// Median, 95th and 99th percentiles of a histogram, in ``unit``.
    public var p50: Double?
    public var p95: Double?
    public var p99: Double?
    /// When it was last updated.
    public var updatedAt: Date

    /// A series; percentiles and rate default to none.
    public init(
        name: String, service: String? = nil, kind: Kind, unit: String? = nil, count: Int, value: Double,
        ratePerSecond: Double? = nil, p50: Double? = nil, p95: Double? = nil, p99: Double? = nil, updatedAt: Date
    ) {
        self.name = name
        self.service = service
        self.kind = kind
        self.unit = unit
        self.count = count
        self.value = value
        self.ratePerSecond = ratePerSecond
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.updatedAt = updatedAt
    }
}
