import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// The `Sources` pane appears only while producers are watched from outside.
struct SourcesPaneTests {
    static func sources() -> [SourceStatus] {
        [
            SourceStatus(
                id: "socket#1", kind: .socket, name: "checkout-api", detail: "pid 4242 · web-1", state: "connected",
                health: .ok, events: 12_408, lastEventAt: fixtureStart.addingTimeInterval(753)),
            SourceStatus(
                id: "socket#2", kind: .socket, name: "batch-worker", detail: "pid 77", state: "connected",
                health: .degraded,
                events: 310, badLines: 3, lastProblem: "malformed JSON at byte 17"),
            SourceStatus(
                id: "socket#3", kind: .socket, name: "flooder", detail: "pid 9",
                state: "gone (closed: over 1048576 bytes/s)",
                health: .failing, events: 90_000),
            SourceStatus(
                id: "file:/var/log/app.ndjson", kind: .file, name: "app.ndjson", detail: "/var/log/app.ndjson",
                state: "following (rotated)", health: .ok, events: 52),
        ]
    }

    @Test func noSourcesNoPane() {
        let layout = DashboardLayout(for: .sample(width: 120, height: 40))
        #expect(layout.sources.isEmpty)
        #expect(!layout.status.isEmpty)
    }

    @Test func sourcesTakeTheStatusSlotWithoutStatuses() {
        var state = DashboardState.sample(width: 120, height: 40, statuses: false)
        _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged(Self.sources()))
        let layout = DashboardLayout(for: state)
        #expect(layout.status.isEmpty)
        #expect(layout.sources.height == 6)
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "external-120x40")
    }

    /// A producer silent for ``SourcesPane/idleAfter`` reads `idle` with how long, and no longer counts as live; a
    /// file row is never idle (it is followed, not heard from).
    @Test func aSilentProducerIsIdleAndNotLive() {
        var state = DashboardState.sample(width: 120, height: 40, statuses: false)
        var sources = Self.sources()
        sources[0].lastEventAt = state.screen.now.addingTimeInterval(-125)
        sources[3].lastEventAt = state.screen.now.addingTimeInterval(-3_600)
        _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged(sources))
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("2 of 4 live"))
        #expect(text.contains("○ checkout-api idle 2m · connected"))
        #expect(text.contains("app.ndjson"))
        #expect(!text.contains("idle 1h"))
    }

    @Test func sourcesShareTheSlotWithStatus() {
        for (width, height) in [(120, 40), (80, 30), (50, 40)] {
            var state = DashboardState.sample(width: width, height: height)
            _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged(Self.sources()))
            let layout = DashboardLayout(for: state)
            #expect(!layout.status.isEmpty, "\(width)x\(height)")
            #expect(!layout.sources.isEmpty, "\(width)x\(height)")
            #expect(layout.sources.maxY <= layout.footer.y)
            let text = Dashboard.render(state).textLines().joined(separator: "\n")
            #expect(text.contains("Sources"))
            #expect(text.contains("Status"))
        }
    }

    @Test func sourcesJoinTheFocusCycleOnlyWhenShown() {
        var state = DashboardState.sample(width: 120, height: 40)
        for _ in 0..<4 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.tab)) }
        #expect(state.screen.focus == .errors)
        _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged(Self.sources()))
        for _ in 0..<4 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.tab)) }
        #expect(state.screen.focus == .sources)
        _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged([]))
        #expect(state.screen.focus == .errors)
    }

    @Test func hostileSourceNamesStayInsideThePane() {
        var state = DashboardState.sample(width: 120, height: 40)
        var hostile = Self.sources()
        hostile[0].name = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        _ = DashboardReducer.reduce(into: &state, action: .sourcesChanged(hostile))
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(!text.contains("\u{1B}"))
    }
}
