import CoreMetrics
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Charts over time (issue 37, item 3): known samples in, known buckets out: a counter as its rate, a gauge as its
/// reading, a histogram as the percentiles of each bucket's own observations, requests as two panels; gaps stay
/// gaps, and the history is bounded.
struct MetricHistoryTests {
    /// A whole minute, so that bucket boundaries of every window fall on it.
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    static func counter(_ total: Double, at seconds: Double) -> MetricSeries {
        MetricSeries(
            name: "orders.placed", service: "shop", kind: .counter, count: 1, value: total,
            updatedAt: start.addingTimeInterval(seconds))
    }

    static func observations(_ values: [Double]) -> ObservationSample {
        var sample = ObservationSample()
        for value in values { sample.add(value) }
        return sample
    }

    @Test func aCounterIsDrawnAsItsRatePerSecond() throws {
        var history = MetricHistory()
        // 10 orders a second for 10 s, then nothing for 5 s, then a reset (the producer restarted).
        for second in 0...15 {
            let total = Double(min(second, 10) * 10)
            history.record(
                [Self.counter(total, at: Double(second))], observations: [:],
                at: Self.start.addingTimeInterval(Double(second)))
        }
        history.record([Self.counter(3, at: 16)], observations: [:], at: Self.start.addingTimeInterval(16))
        let id = MetricSeries.id(name: "orders.placed", service: "shop")
        let chart = try #require(history.chart(for: id, at: Self.start.addingTimeInterval(16)))
        #expect(chart.kind == .counter && chart.name == "orders.placed" && chart.service == "shop")
        let plot = try #require(chart.plots[.oneMinute])
        #expect(plot.panels.count == 1 && plot.panels[0].unit == "1/s")
        let rate = plot.panels[0].lines[0].values
        #expect(rate.count == MetricChart.buckets)
        // The newest bucket is the last slot: second 16 at slot 59, second 0 at slot 43.
        #expect(rate[..<43].allSatisfy { $0 == nil }, "before the first sample: nothing")
        #expect(rate[43] == nil, "the first sample has no bucket before it")
        #expect(rate[44...53].allSatisfy { $0 == 10 })
        #expect(rate[54...58].allSatisfy { $0 == 0 })
        #expect(rate[59] == nil, "a total that went down is a reset, not a negative rate")
        // In the 5-minute window, seconds 0…4 share a bucket, 5…9 the next (50 orders in the 5 s from second 4
        // to 9), 10…14 the next (10 orders), 15…16 the last (the reset).
        let five = try #require(chart.plots[.fiveMinutes]?.panels[0].lines[0].values)
        #expect(five[56] == nil && five[57] == 10 && five[58] == 2 && five[59] == nil)
    }

    @Test func aHistogramIsDrawnAsEachBucketsOwnPercentiles() throws {
        var history = MetricHistory()
        let series = MetricSeries(
            name: "http.server.duration{http.route=/checkout,status=500}", service: "shop", kind: .histogram,
            unit: "ms", count: 100, value: 1, updatedAt: Self.start)
        // Second 0: 1…100 ms. Second 1: nothing. Second 2: 1,000 observations of 7 ms, more than a bucket keeps.
        history.record(
            [series], observations: [series.id: Self.observations((1...100).map(Double.init))], at: Self.start)
        history.record([series], observations: [:], at: Self.start.addingTimeInterval(1))
        history.record(
            [series], observations: [series.id: Self.observations(Array(repeating: 7, count: 1_000))],
            at: Self.start.addingTimeInterval(2))
        let chart = try #require(history.chart(for: series.id, at: Self.start.addingTimeInterval(2)))
        let panel = try #require(chart.plots[.oneMinute]?.panels.first)
        #expect(panel.unit == "ms" && panel.lines.map(\.label) == ["p50", "p95", "p99"])
        #expect(panel.lines.map { $0.values[57] } == [50, 95, 99])
        #expect(panel.lines.allSatisfy { $0.values[58] == nil }, "no observations: a gap, not a zero")
        #expect(panel.lines.allSatisfy { $0.values[59] == 7 })
        #expect(chart.sampleLimit == ObservationSample.capacity)
    }

    @Test func gaugesAndRequestsHaveTheirOwnPanels() throws {
        var history = MetricHistory()
        let gauge = MetricSeries(
            name: "queue.depth", kind: .gauge, unit: "1", count: 1, value: 17, updatedAt: Self.start)
        var requests = MetricSeries(
            name: "POST /checkout", service: "shop", kind: .requests, unit: "ms", count: 0, value: 0,
            updatedAt: Self.start)
        history.record([gauge, requests], observations: [:], at: Self.start)
        requests.count = 20
        requests.value = 4
        var later = gauge
        later.value = -3
        history.record(
            [later, requests], observations: [requests.id: Self.observations([10, 20, 30])],
            at: Self.start.addingTimeInterval(2))
        let at = Self.start.addingTimeInterval(2)
        let depth = try #require(history.chart(for: gauge.id, at: at)?.plots[.oneMinute]?.panels)
        #expect(depth.count == 1 && depth[0].lines[0].values.suffix(3) == [17, nil, -3])
        let checkout = try #require(history.chart(for: requests.id, at: at)?.plots[.oneMinute]?.panels)
        #expect(checkout.map(\.title) == ["rate", "duration"])
        #expect(checkout[0].lines.map(\.label) == ["requests", "errors"])
        #expect(checkout[0].lines[0].values[59] == 10 && checkout[0].lines[1].values[59] == 2)
        #expect(checkout[1].lines.map { $0.values[59] } == [20, 30, 30])
    }

    @Test func itIsBoundedAndForgetsSeriesNoLongerListed() throws {
        var history = MetricHistory()
        let a = Self.counter(0, at: 0)
        var b = a
        b.name = "orders.failed"
        // Two hours of samples every half second.
        for tick in 0..<14_400 {
            let at = Self.start.addingTimeInterval(Double(tick) / 2)
            var current = a
            current.value = Double(tick)
            history.record(tick < 100 ? [current, b] : [current], observations: [:], at: at)
        }
        #expect(history.count == 1)
        let end = Self.start.addingTimeInterval(7_199.5)
        #expect(history.chart(for: b.id, at: end) == nil)
        let chart = try #require(history.chart(for: a.id, at: end))
        for window in MetricChart.Window.allCases {
            let values = try #require(chart.plots[window]?.panels[0].lines[0].values)
            #expect(values.count == 60)
            // Two increments a second, in every bucket of every window.
            #expect(values.allSatisfy { $0.map { abs($0 - 2) < 1e-9 } ?? false }, "\(window)")
        }
    }

    @Test func aSampleKeepsAnEvenShareAndCountsEveryObservation() {
        var sample = ObservationSample()
        for value in 1...10_000 { sample.add(Double(value)) }
        #expect(sample.count == 10_000)
        let percentiles = sample.percentiles([50, 99])
        // An even sample of 256 of 1…10,000: the median near 5,000.
        #expect(percentiles[0].map { abs($0 - 5_000) < 1_000 } == true)
        #expect(percentiles[1].map { $0 > 9_000 } == true)
        var merged = ObservationSample()
        merged.merge(sample)
        #expect(merged.count == 10_000)
        #expect(ObservationSample().percentiles([50]) == [nil])
    }

    @Test func theBackendHandsOutEachStretchsObservationsOnce() throws {
        let metrics = DashboardMetrics(now: { Self.start })
        let recorder = Recorder(
            label: "remote.payload", dimensions: [("service", "shop")], aggregate: true, factory: metrics)
        recorder.record(3.5)
        recorder.record(1.5)
        CoreMetrics.Timer(label: "render", factory: metrics).recordNanoseconds(2_000)
        let taken = metrics.takeObservations()
        #expect(taken[MetricSeries.id(name: "payload", service: "shop")]?.count == 2)
        #expect(taken[MetricSeries.id(name: "render", service: nil)]?.percentiles([50]) == [2_000])
        #expect(metrics.takeObservations().isEmpty, "taken once")
    }
}
