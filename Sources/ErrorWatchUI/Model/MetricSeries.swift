import ErrorStreaming
import Foundation

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
        /// Requests computed from spans (per service and server or consumer span name): ``ratePerSecond`` over
        /// the last minute, ``errorRatio`` over the same minute, percentiles of the duration, ``count`` requests
        /// and ``value`` failures in all.
        case requests
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
    /// The share of requests that failed (0…1), for ``Kind/requests``; `nil` for other kinds.
    public var errorRatio: Double?

    /// A series; percentiles and rate default to none.
    public init(
        name: String, service: String? = nil, kind: Kind, unit: String? = nil, count: Int, value: Double,
        ratePerSecond: Double? = nil, p50: Double? = nil, p95: Double? = nil, p99: Double? = nil, updatedAt: Date,
        errorRatio: Double? = nil
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
        self.errorRatio = errorRatio
    }
}
