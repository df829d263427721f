import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchTerminalTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchTerminal

/// Issue 26: the loop drives a refilter of a long history one slice per frame (`.frameStarted`), and keys are
/// answered between slices: `q` quits at once, whatever is left to filter.
struct RefilterLoopTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    /// A loop over `lines` received lines, typing `/b` Enter, then waking `idle` times, then `q`.
    func run(lines: Int, idle: Int) -> DashboardState {
        let keys: [TerminalInput] = [.key(.character("/")), .key(.character("b")), .key(.enter)]
        let backend = InMemoryBackend(
            width: 100, height: 30, script: [keys] + Array(repeating: [], count: idle) + [[.key(.character("q"))]])
        var history: [DashboardAction] = [
            .eventsReceived(
                (1...lines).map {
                    DashboardEvent(
                        sequence: UInt64($0), timestamp: Self.start, kind: .log, level: .info, source: "test",
                        typeName: "log", message: $0 % 2 == 0 ? "a" : "b")
                })
        ]
        let state = DashboardState(width: 100, height: 30, now: Self.start, logCapacity: lines)
        let loop = DashboardLoop(
            backend: backend, state: state, drain: { defer { history = [] }; return history }, perform: { _ in },
            now: { Self.start }, clock: ErasedClock(ManualClock()))
        loop.frameInterval = .zero
        return loop.run()
    }

    @Test func eachFrameFiltersOneSlice() {
        let steps = 3
        let final = run(lines: 40_000, idle: steps)
        // Enter took the first slice; then one per wake-up: the keys' wake-up, `steps` idle ones and `q`'s.
        #expect(final.logs.unexamined == 40_000 - (steps + 3) * LogsState.refilterLinesPerStep)
        #expect(final.quitRequested, "q is answered while the refilter goes on")
    }

    @Test func enoughFramesFinishTheRefilter() {
        let final = run(lines: 40_000, idle: 12)
        #expect(!final.hasWorkInProgress)
        #expect(final.logs.filtered.count == 20_000)
        #expect(final.logs.filtered.allSatisfy { $0.message == "b" })
    }
}
