import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Metric charts (issue 37, item 3): `j`/`k` select a series in the Metrics pane, `Enter` opens its chart and asks
/// the runtime for it, `w` cycles the window; known points land on known dots; snapshots at 80×24 and 200×50
/// (waiting, typical, overflowing, ASCII).
@MainActor
struct MetricChartTests {
    func press(_ state: inout DashboardState, _ keys: Key...) -> [DashboardEffect] {
        keys.flatMap { DashboardReducer.reduce(into: &state, action: .keyPressed($0)) }
    }

    static let latency = MetricSeries.fixtures[0]

    /// The latency histogram's chart: p50 around 150 ms rising to 400 ms in the last quarter, p95 and p99 above it,
    /// nothing recorded for five buckets in the middle.
    static func latencyChart(name: String = latency.name, service: String? = nil) -> MetricChart {
        func line(_ label: String, _ factor: Double) -> MetricChart.Line {
            MetricChart.Line(
                label: label,
                values: (0..<MetricChart.buckets).map { index -> Double? in
                    if (28..<33).contains(index) { return nil }
                    let base = index < 45 ? 140 + Double(index % 7) * 5 : 400 - Double(59 - index) * 8
                    return base * factor * 1_000_000
                })
        }
        let panel = MetricChart.Panel(
            title: "percentiles", unit: "ns", lines: [line("p50", 1), line("p95", 1.6), line("p99", 2.1)])
        let plot = MetricChart.Plot(end: fixtureStart.addingTimeInterval(754), panels: [panel])
        return MetricChart(
            id: MetricSeries.id(name: name, service: service), name: name, service: service, kind: .histogram,
            plots: Dictionary(uniqueKeysWithValues: MetricChart.Window.allCases.map { ($0, plot) }), sampleLimit: 256)
    }

    /// The sample dashboard with the Metrics pane focused and the latency histogram's chart open; `chart` is what
    /// the runtime sent (none yet when `nil`).
    func charted(width: Int, height: Int, unicode: Bool = true, chart: MetricChart? = latencyChart()) -> DashboardState
    {
        var state = DashboardState.sample(width: width, height: height, unicode: unicode)
        _ = press(&state, .tab, .tab)
        _ = press(&state, .enter)
        var snapshot = state.feeds.metrics
        snapshot.chart = chart
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        return state
    }

    @Test func jAndKSelectASeriesAndEnterOpensItsChart() throws {
        var state = DashboardState.sample()
        _ = press(&state, .tab, .tab)
        #expect(state.screen.focus == .metrics)
        #expect(state.feeds.selectedSeriesIndex == 0)
        _ = press(&state, .character("j"), .character("j"), .character("k"))
        let series = MetricSeries.fixtures[1]
        #expect(state.feeds.selectedSeries == series.id)
        #expect(state.logs.selectedSequence == nil, "Logs did not scroll")
        _ = press(&state, .character("G"))
        #expect(state.feeds.selectedSeriesIndex == MetricSeries.fixtures.count - 1)
        _ = press(&state, .character("g"), .character("j"))
        let effects = press(&state, .enter)
        #expect(effects == [.metricOpened(series.id)])
        #expect(state.detail.target == .metric(series.id))
        #expect(state.detail.chartWindow == .fiveMinutes)
        _ = press(&state, .character("w"))
        #expect(state.detail.chartWindow == .fifteenMinutes)
        _ = press(&state, .character("w"), .character("w"))
        #expect(state.detail.chartWindow == .oneMinute)
        _ = press(&state, .escape)
        #expect(state.detail.target == nil)
        #expect(state.detail.chartWindow == .oneMinute, "the window is kept for the next chart")
    }

    /// While the pane has the focus the rows hold still: a sample in another order (most recently updated first)
    /// keeps every listed series in its row, a new one goes below, one no longer sampled leaves. Once the focus
    /// moves on, the next sample's order is shown, and the selection follows its series.
    @Test func rowsHoldStillUnderTheSelectionWhileThePaneHasTheFocus() {
        var state = DashboardState.sample()
        _ = press(&state, .tab, .tab, .character("j"))
        let listed = state.feeds.metrics.series.map(\.id)
        var snapshot = state.feeds.metrics
        snapshot.series.reverse()
        var added = MetricSeries.fixtures[0]
        added.name = "queue.depth"
        snapshot.series.insert(added, at: 0)
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        #expect(state.feeds.metrics.series.map(\.id) == listed + [added.id])
        #expect(state.feeds.selectedSeriesIndex == 1, "the selected series kept its row")
        snapshot.series.removeAll { $0.id == MetricSeries.fixtures[0].id }
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        #expect(state.feeds.metrics.series.map(\.id) == Array(listed.dropFirst()) + [added.id])
        #expect(state.feeds.selectedSeries == MetricSeries.fixtures[1].id)
        #expect(state.feeds.selectedSeriesIndex == 0)
        snapshot.series.removeAll { $0.id == MetricSeries.fixtures[1].id }
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        #expect(state.feeds.selectedSeriesIndex == 0, "a series no longer listed: the first is selected")

        // Focus elsewhere: the sample's own order, the selection following its series.
        var other = DashboardState.sample()
        _ = press(&other, .tab, .tab, .character("j"), .tab)
        #expect(other.screen.focus != .metrics)
        var reordered = other.feeds.metrics
        reordered.series.reverse()
        _ = DashboardReducer.reduce(into: &other, action: .metricsSampled(reordered))
        #expect(other.feeds.metrics.series.map(\.id) == reordered.series.map(\.id))
        #expect(other.feeds.selectedSeriesIndex == MetricSeries.fixtures.count - 2)
    }

    @Test func withoutSeriesTheScrollKeysStillScrollLogs() {
        var state = DashboardState.sample()
        var snapshot = state.feeds.metrics
        snapshot.series = []
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        _ = press(&state, .tab, .tab)
        let logs = state.logs
        _ = press(&state, .character("k"))
        #expect(state.logs != logs, "k scrolled Logs")
        #expect(state.feeds.selectedSeries == nil)
    }

    @Test func knownPointsLandOnKnownDots() {
        // Two cells by one: four dots across, four down; 0 at the bottom, 3 at the top.
        var canvas = ChartCanvas(width: 2, height: 1, unicode: true)
        canvas.plot([0, 3], range: 0...3, line: 0)
        // From (0,3) to (3,0): dots (0,3) (1,2) (2,1) (3,0): bits 0x40|0x20 in the first cell, 0x02|0x08 in the
        // second.
        #expect(canvas.text(row: 0) == "\u{2860}\u{280A}")
        var ascii = ChartCanvas(width: 5, height: 3, unicode: false)
        ascii.plot([0, 1, nil, 2, 2], range: 0...2, line: 1)
        #expect((0..<3).map(ascii.text(row:)) == ["   ++", " +   ", "+    "])
        #expect(ascii.glyph(x: 2, y: 1) == nil, "a missing value breaks the line")
    }

    @Test func axesAreRoundAndInTheSeriesUnit() {
        #expect(MetricChartView.roundedUp(0.7) == 1 && MetricChartView.roundedUp(1.3) == 2)
        #expect(MetricChartView.roundedUp(230) == 250 && MetricChartView.roundedUp(4_100) == 5_000)
        #expect(MetricChartView.value(2.5, unit: "1/s") == "2.50/s")
        #expect(MetricChartView.value(2_048, unit: "By/s") == "2KiB/s")
        #expect(MetricChartView.value(250_000_000, unit: "ns") == Format.measurement(250_000_000, unit: "ns"))
        #expect(MetricChartView.span(150) == "2m30s" && MetricChartView.span(3_600) == "60m")
        let panel = MetricChart.Panel(title: "value", unit: nil, lines: [.init(label: "value", values: [-3, nil, 17])])
        #expect(MetricChartView.valueRange(panel, kind: .histogram) == -5...20)
        #expect(MetricChartView.valueRange(panel, kind: .gauge) == -5...19)
    }

    @Test(arguments: [(80, 24), (200, 50)])
    func chartSnapshots(_ width: Int, _ height: Int) {
        assertSnapshot(
            of: Dashboard.render(charted(width: width, height: height)), as: .screen, named: "\(width)x\(height)")
    }

    @Test func aChartBeforeItsFirstSampleSaysSo() {
        let state = charted(width: 80, height: 24, chart: nil)
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("Waiting for the next sample"))
        assertSnapshot(of: Dashboard.render(state), as: .screen)
    }

    @Test func requestsWithALongNameInASCII() {
        let name =
            "POST /api/v2/checkout{deployment.environment=production,http.request.method=POST,"
            + "http.route=/api/v2/checkout/{cartId}/confirm,server.address=shop-7d9f8c-xk2lp,status=500}"
        var chart = Self.latencyChart(name: name, service: "shop")
        chart.kind = .requests
        let rate = MetricChart.Panel(
            title: "rate", unit: "1/s",
            lines: [
                .init(label: "requests", values: (0..<60).map { Double(20 + $0 % 10) }),
                .init(label: "errors", values: (0..<60).map { $0 < 40 ? 0 : Double($0 - 40) / 2 }),
            ])
        for window in MetricChart.Window.allCases { chart.plots[window]?.panels.insert(rate, at: 0) }
        var state = DashboardState.sample(width: 80, height: 24, unicode: false)
        var snapshot = state.feeds.metrics
        snapshot.series.insert(
            MetricSeries(
                name: name, service: "shop", kind: .requests, unit: "ms", count: 1_000, value: 50,
                ratePerSecond: 25, p50: 150, p95: 400, p99: 800, updatedAt: fixtureStart, errorRatio: 0.05),
            at: 0)
        snapshot.chart = chart
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        _ = press(&state, .tab, .tab, .enter)
        #expect(state.detail.target == .metric(chart.id))
        let screen = Dashboard.render(state)
        #expect(screen.textLines().contains { $0.contains("status=500}") }, "the name with every label")
        assertSnapshot(of: screen, as: .screen, named: "80x24")
        var wide = state
        _ = DashboardReducer.reduce(into: &wide, action: .resized(width: 200, height: 50))
        assertSnapshot(of: Dashboard.render(wide), as: .screen, named: "200x50")
    }

    @Test func theFocusedPaneHighlightsTheSelectedSeries() {
        var state = DashboardState.sample(width: 120, height: 40)
        _ = press(&state, .tab, .tab, .character("j"), .character("j"))
        var buffer = ScreenBuffer(width: 60, height: 8)
        let palette = Palette(theme: state.screen.theme, depth: state.screen.colorDepth)
        MetricsPane.render(MetricsPane.input(state, palette: palette), in: buffer.area, into: &buffer)
        assertSnapshot(of: buffer, as: .screen)
        #expect(buffer.textLines().contains { $0.contains("auth.login.failed") })
    }
}
