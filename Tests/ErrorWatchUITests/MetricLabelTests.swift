import Foundation
import Testing

@testable import ErrorWatchUI

/// The Metrics pane keeps a series' last label whole when its name must be cut (issue 37, item 3): two series of
/// one counter that differ only in `status` stay apart on a narrow pane.
struct MetricLabelTests {
    static let base = "http.server.requests{http.route=/checkout,http.request.method=POST,"

    @Test func aCutNameKeepsItsLastLabel() {
        let name = Self.base + "status=500}"
        #expect(MetricsPane.fitted(name, to: 200) == name)
        let cut = MetricsPane.fitted(name, to: 40)
        #expect(DisplayWidth.of(cut) <= 40)
        #expect(cut.hasPrefix("http.server.requests{http.r") && cut.hasSuffix("…status=500}"))
        // Without labels, or with a last label too long for the room, the name is left to be cut at its end.
        let plain = "a.very.long.metric.name.without.labels"
        #expect(MetricsPane.fitted(plain, to: 10) == plain)
        #expect(MetricsPane.fitted("m{a=1,b=" + String(repeating: "x", count: 60) + "}", to: 20).hasPrefix("m{a=1,b="))
    }

    @Test func seriesThatDifferOnlyInStatusAreToldApartOnANarrowPane() {
        var state = DashboardState.sample(width: 120, height: 40)
        var snapshot = state.feeds.metrics
        snapshot.series = ["200", "500"].map { status in
            MetricSeries(
                name: Self.base + "status=\(status)}", kind: .counter, count: 10, value: 10, ratePerSecond: 1.5,
                updatedAt: fixtureStart)
        }
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("…status=200}") && text.contains("…status=500}"))
    }
}
