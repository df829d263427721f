import ErrorStreaming
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import SnapshotTesting
import Testing

/// What a developer sees when errorwatch watches their own service, not the demo: a producer written in Python
/// (`Tests/e2e/foreign_producer.py`, recorded into `Fixtures/foreign-producer.ndjson`) that sends errors without a
/// user message, a latency histogram, a gauge, a counter and two statuses.
struct ForeignProducerTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/foreign-producer.ndjson").path

    func render(width: Int = 120, height: Int = 40) throws -> HeadlessRenderer.Outcome {
        let player = try RecordingPlayer(path: Self.fixture)
        return HeadlessRenderer(
            options: .init(width: width, height: height, duration: try player.measure().playingTime + .seconds(1), recording: player)
        ).run()
    }

    @Test func theScreenShowsTheProducersOwnMetricsStatusesAndFailures() throws {
        let outcome = try render()
        let text = outcome.screen.snapshotText(styles: false)
        // Its histogram with percentiles, its gauge and its counter, under their own names and service.
        let duration = try #require(outcome.state.feeds.metrics.series.first { $0.name == "http.server.duration" })
        #expect(duration.kind == .histogram && duration.count == 12 && duration.service == "shop-py")
        #expect(abs((duration.p50 ?? 0) - 13.3) < 0.1, "the 6th of 12 sorted observations")
        #expect(abs((duration.p99 ?? 0) - 480) < 1)
        #expect(outcome.state.feeds.metrics.series.first { $0.name == "queue.depth" }?.value == 9)
        #expect(outcome.state.feeds.metrics.series.first { $0.name == "orders.placed" }?.value == 10)
        #expect(text.contains("http.server.duration") && text.contains("p50 13ms") && text.contains("p95 480ms"))
        #expect(text.contains("queue.depth"))
        // Both statuses, with their health.
        #expect(outcome.state.feeds.statuses.map(\.name) == ["reconciler", "payments"])
        #expect(outcome.state.feeds.statuses.map(\.health) == [.ok, .degraded])
        // Alerts name what failed, not the category's generic sentence.
        let titles = outcome.state.errors.alerts.map(\.title)
        #expect(titles.contains("GatewayTimeout: POST /charge timed out after 3000 ms"))
        #expect(titles.contains("KeyError: 'shipping_address'"))
        #expect(Set(titles).count == 4)
        #expect(!text.contains("temporarily unavailable"))
        // No word of the demo anywhere.
        for word in ["login", "flows", "Flows", "demo"] { #expect(!text.contains(word), "\(word)") }
    }

    @Test func snapshot120x40() throws {
        assertSnapshot(of: try render().screen.snapshotText(styles: true), as: .lines, named: "120x40")
    }

    @Test func snapshot80x24() throws {
        assertSnapshot(
            of: try render(width: 80, height: 24).screen.snapshotText(styles: false), as: .lines, named: "80x24")
    }
}
