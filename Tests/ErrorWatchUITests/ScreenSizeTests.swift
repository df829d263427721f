import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Issue 26: what a frame costs grows with the cells drawn, so the drawn size has a ceiling.
struct ScreenSizeTests {
    @Test func aResizeBeyondTheMaximumDrawsTheMaximum() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        _ = DashboardReducer.reduce(into: &state, action: .resized(width: 2_000, height: 500))
        let maximum = DashboardState.maximumSize
        #expect(state.screen.width == maximum.width && state.screen.height == maximum.height)
        let frame = Dashboard.render(state)
        #expect(frame.cells.count == maximum.width * maximum.height)
        #expect(frame.text(ofRow: maximum.height - 1).contains("quit"), "the footer is on the last row drawn")
    }

    @Test func aResizeToTheSameDrawnSizeChangesNothing() {
        var state = DashboardState(width: 2_000, height: 500, now: fixtureStart)
        let before = state.generation
        _ = DashboardReducer.reduce(into: &state, action: .resized(width: 3_000, height: 900))
        #expect(state.generation == before, "both are drawn at the maximum: no redraw")
        _ = DashboardReducer.reduce(into: &state, action: .resized(width: -5, height: 30))
        #expect(state.screen.width == 0 && state.screen.height == 30)
    }

    @Test func sizesWithinTheMaximumAreKept() {
        #expect(ScreenState.drawnSize(width: 200, height: 50) == (200, 50))
        #expect(ScreenState.drawnSize(width: 800, height: 250) == (800, 250))
        #expect(ScreenState.drawnSize(width: 801, height: 251) == (800, 250))
    }
}
