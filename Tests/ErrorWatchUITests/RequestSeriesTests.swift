import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Request metrics from spans in the Metrics pane: rate, error share and percentiles beside the producers' own
/// series.
struct RequestSeriesTests {
    static let series = MetricSeries(
        name: "POST /checkout", service: "shop", kind: .requests, unit: "ms", count: 1_200, value: 100,
        ratePerSecond: 12.5, p50: 41, p95: 180, p99: 350, updatedAt: Date(timeIntervalSince1970: 1_767_258_000),
        errorRatio: 0.0833)

    @Test func aRequestSeriesShowsRateErrorShareAndPercentiles() {
        let values = MetricsPane.values(of: Self.series)
        #expect(values.map(\.0) == ["", "err", "p50", "p95", "p99"])
        #expect(values[0].1 == "12.5/s")
        #expect(values[1].1 == "8.3%")
        #expect(values[2].1.hasPrefix("41"))
    }

    @Test func theMetricsPaneListsRequestsBesideProducerMetrics() {
        var state = DashboardState.sample(width: 120, height: 40)
        var snapshot = state.feeds.metrics
        snapshot.series = [
            Self.series,
            MetricSeries(
                name: "queue.depth", service: "worker", kind: .gauge, count: 3, value: 12,
                updatedAt: Date(timeIntervalSince1970: 1_767_257_000)),
        ]
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        let frame = Dashboard.render(state)
        let text = frame.snapshotText()
        #expect(text.contains("POST /checkout · shop"))
        #expect(text.contains("12.5/s err 8.3%"))
    }
}
