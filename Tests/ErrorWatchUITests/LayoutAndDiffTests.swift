import Testing

@testable import ErrorWatchUI

struct LayoutAndDiffTests {
    @Test func splitsHonourConstraintsAndTile() {
        let parts = Layout.split(
            Rect(x: 0, y: 0, width: 100, height: 10), .horizontal,
            [.fixed(10), .percentage(30), .fill(1), .fill(3)])
        #expect(parts.map(\.width) == [10, 30, 15, 45])
        #expect(parts.map(\.x) == [0, 10, 40, 55])
        let squeezed = Layout.split(Rect(x: 0, y: 0, width: 5, height: 3), .vertical, [.fixed(2), .fixed(4), .fill(1)])
        #expect(squeezed.map(\.height) == [2, 1, 0])
    }

    @Test func layoutAdaptsToWidth() {
        let wide = DashboardLayout(width: 200, height: 50)
        #expect(wide.errors.x == wide.logs.x && wide.metrics.x > wide.errors.x, "side by side")
        let medium = DashboardLayout(width: 80, height: 24)
        #expect(medium.errors.width == 80 && medium.logs.width == 80 && medium.metrics.y == medium.status.y)
        let narrow = DashboardLayout(width: 50, height: 40)
        #expect([narrow.errors, narrow.logs, narrow.metrics, narrow.status].allSatisfy { $0.width == 50 })
        #expect(DashboardLayout(width: 39, height: 30).isTooSmall)
        #expect(DashboardLayout(width: 80, height: 9).isTooSmall)
    }

    @Test func diffYieldsOnlyChangedCells() {
        let state = DashboardState.sample(width: 120, height: 40)
        let before = Dashboard.render(state)
        #expect(before.changes(since: before).isEmpty)
        var after = before
        after.write("X", x: 7, y: 3, style: .plain)
        #expect(after.changes(since: before) == [CellChange(x: 7, y: 3, cell: after[7, 3]!)])
        let resized = ScreenBuffer(width: 3, height: 2)
        #expect(resized.changes(since: before).count == 6)
    }

    @Test func diffOfOnePaneChangeStaysInsideThatPane() {
        var state = DashboardState.sample(width: 200, height: 50)
        let before = Dashboard.render(state)
        _ = DashboardReducer.reduce(
            into: &state,
            action: .statusChanged(
                StatusEntry(
                    name: "sync", state: "synced", health: .ok, detail: "batch 44 ok", changedAt: state.screen.now)))
        let after = Dashboard.render(state)
        let flows = DashboardLayout(width: 200, height: 50).status
        let changes = after.changes(since: before)
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.x >= flows.x && $0.x < flows.maxX && $0.y >= flows.y && $0.y < flows.maxY })
    }

    @Test func renderIsDeterministic() {
        let state = DashboardState.sample()
        #expect(Dashboard.render(state) == Dashboard.render(state))
        var reused = ScreenBuffer(width: 1, height: 1)
        Dashboard.render(state, into: &reused)
        #expect(reused == Dashboard.render(state))
    }
}

struct ShortTerminalLayoutTests {
    /// On short terminals Errors and Logs keep room for content; Metrics and Flows give way first.
    @Test func errorsAndLogsStayReadableDownToTheMinimumHeight() {
        for width in [40, 45, 59, 60, 80, 109, 110, 200] {
            for height in DashboardState.minimumSize.height...30 {
                let layout = DashboardLayout(width: width, height: height)
                #expect(layout.errors.height >= 3, "\(width)x\(height) errors")
                #expect(layout.logs.height >= 3, "\(width)x\(height) logs")
            }
        }
    }
}
