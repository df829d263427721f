import ErrorStreaming
import Foundation

/// `metric.kind`: what a metric event's `metric.value` means, and so how a receiver combines a series' samples.
///
/// Read case-insensitively; written in lower case. A line without `metric.kind` is a ``gauge``.
///
/// ```swift
/// WireEncoder().metricEvent(
///     name: "http.server.duration", value: 12.5, kind: .histogram, unit: "ms", dimensions: [:], time: Date())
/// ```
public enum WireMetricKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The value is the latest reading (queue length, memory in use); it replaces the previous one.
    case gauge
    /// The value is an increment, added to the series' running total (requests served, bytes sent).
    case counter
    /// The value is one observation (one request's duration); a receiver shows the count and p50, p95, p99.
    case histogram

    /// Parses a wire name case-insensitively: `gauge`, `counter`, `histogram`.
    public init?(wireName: String) {
        self.init(rawValue: wireName.lowercased())
    }
}
