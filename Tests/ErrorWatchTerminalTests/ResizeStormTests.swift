import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchTerminalTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchTerminal

/// Issue 26: a resize storm at any size keeps memory and the work per frame bounded. A burst of resizes is one
/// full redraw, and a terminal beyond ``DashboardState/maximumSize`` is drawn at that size.
struct ResizeStormTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    func makeLoop(_ backend: InMemoryBackend, logs: Int = 0) -> DashboardLoop<InMemoryBackend> {
        let state = DashboardState(width: backend.size.width, height: backend.size.height, now: Self.start)
        let loop = DashboardLoop(
            backend: backend, state: state, drain: { [] }, perform: { _ in }, now: { Self.start },
            clock: ErasedClock(ManualClock()))
        loop.frameInterval = .zero
        return loop
    }

    @Test func aBurstOfResizesIsOneFullRedraw() {
        let sizes = (0..<50).map { TerminalInput.resized(width: 60 + $0, height: 20 + $0 % 7) }
        let backend = InMemoryBackend(
            width: 100, height: 30, script: [sizes + [.resized(width: 90, height: 25)], [.key(.character("q"))]])
        let loop = makeLoop(backend)
        let final = loop.run()
        #expect(final.screen.width == 90 && final.screen.height == 25)
        #expect(backend.invalidations == 1)
        // The first frame, then one full frame at the last size: nothing drawn for the 50 sizes in between.
        #expect(backend.writtenCells == 100 * 30 + 90 * 25)
        #expect(loop.framesDrawn == 2)
    }

    @Test func aHugeTerminalIsDrawnAtTheMaximumSize() {
        let backend = InMemoryBackend(
            width: 100, height: 30, script: [[.resized(width: 2_000, height: 500)], [.key(.character("q"))]])
        let final = makeLoop(backend).run()
        let maximum = DashboardState.maximumSize
        #expect(final.screen.width == maximum.width && final.screen.height == maximum.height)
        // The cells a frame allocates, diffs and writes are bounded by the maximum, not the terminal's 1,000,000.
        #expect(backend.writtenCells == 100 * 30 + maximum.width * maximum.height)
        #expect(backend.text.contains("Alerts"))
    }

    @Test func keysBetweenResizesStillCount() {
        let backend = InMemoryBackend(
            width: 100, height: 30,
            script: [
                [.resized(width: 120, height: 40), .key(.character("p")), .resized(width: 110, height: 35)],
                [.key(.character("q"))],
            ])
        let final = makeLoop(backend).run()
        #expect(final.logs.isPaused)
        #expect(final.screen.width == 110 && final.screen.height == 35)
    }
}
