import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Issue 26: changing the query over a long history re-examines it a bounded slice per reducer step, newest first,
/// so keys and `q` are answered between slices; the result is the full filter, and lines arriving meanwhile are
/// filtered as they arrive, neither lost nor counted twice.
struct RefilterTests {
    /// The query of the issue: nested quantifiers, which a backtracking engine takes exponential time over.
    static let hostileQuery = "/(a+)+$/"

    /// Line `n`: every third one is `aaaa…b` (the hostile query's worst case, no match), the others end in `a`.
    func line(_ n: Int, length: Int = 30) -> DashboardEvent {
        let text = String(repeating: "a", count: length) + (n % 3 == 0 ? "b" : "")
        return DashboardEvent(
            sequence: UInt64(n), timestamp: fixtureStart, kind: .log, level: .info, source: "test",
            typeName: "log", message: text)
    }

    /// A dashboard keeping `count` lines, all of them received.
    func history(_ count: Int, length: Int = 30) -> DashboardState {
        var state = DashboardState(now: fixtureStart, logCapacity: count)
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived((1...count).map { line($0, length: length) }))
        return state
    }

    /// Types `/`, erases the query there, types `text` and Enter, as a person would.
    func query(_ text: String, _ state: inout DashboardState) {
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        let erase = Array(repeating: Key.backspace, count: state.filter.draft.count)
        for key in erase + text.map({ Key.character($0) }) + [.enter] {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
        }
    }

    /// Sends `.frameStarted` until the refilter is done; returns how many steps it took.
    @discardableResult
    func finish(_ state: inout DashboardState) -> Int {
        var steps = 0
        while state.hasWorkInProgress {
            _ = DashboardReducer.reduce(into: &state, action: .frameStarted)
            steps += 1
        }
        return steps
    }

    /// How many lines a step examines under the state's query, starting below line `end` (the newest by default).
    func linesPerStep(_ state: DashboardState, below end: Int? = nil) -> Int {
        let scanCost = state.filter.query.scanCost
        var (index, work, count) = (end ?? state.logs.lines.count, 0, 0)
        while index > 0, count < LogsState.refilterLinesPerStep, work < LogsState.refilterWorkPerStep {
            index -= 1
            work += LogsState.refilterCost(of: state.logs.lines[index], scanCost)
            count += 1
        }
        return count
    }

    func fullFilter(_ state: DashboardState) -> [UInt64] {
        state.logs.lines.filter { state.filter.matches($0) }.map(\.sequence)
    }

    @Test func oneStepExaminesABoundedSliceOfALongHistory() {
        var state = history(100_000)
        query(Self.hostileQuery, &state)
        // Enter took the first slice only: the newest lines, the ones on screen.
        let examined = 100_000 - state.logs.unexamined
        #expect(examined == linesPerStep(state))
        #expect(examined < 1_000, "the regex makes each line cost: \(examined) a step")
        #expect(state.hasWorkInProgress)
        #expect(state.logs.filtered.map(\.sequence) == fullFilter(state).suffix(state.logs.filtered.count))
        let before = state.logs.unexamined
        _ = DashboardReducer.reduce(into: &state, action: .frameStarted)
        #expect(before - state.logs.unexamined == linesPerStep(state, below: before))
        // The title says how far it got; keys are answered meanwhile (`q` quits at once).
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(screen.contains("filtering… 0%"))
        for _ in 0..<20 { _ = DashboardReducer.reduce(into: &state, action: .frameStarted) }
        let percent = Int(Double(22 * examined) / 1_000)
        #expect(Dashboard.render(state).textLines().joined().contains("filtering… \(percent)%"))
        #expect(DashboardReducer.reduce(into: &state, action: .keyPressed(.character("q"))) == [.quit])
    }

    @Test func longLinesMakeSmallerSlices() {
        var state = history(2_000, length: 8_000)
        query(Self.hostileQuery, &state)
        let examined = 2_000 - state.logs.unexamined
        let cost = LogsState.refilterCost(of: state.logs.lines[0], state.filter.query.scanCost)
        #expect(examined == (LogsState.refilterWorkPerStep + cost - 1) / cost)
        #expect(examined < 10, "a few such lines: \(examined)")
        // A plain word costs far less a scalar than the regex: far more lines a step.
        query("aaaa", &state)
        #expect(2_000 - state.logs.unexamined > 10 * examined)
    }

    @Test func steppingToTheEndGivesTheFullFilter() {
        var state = history(100_000)
        query(Self.hostileQuery, &state)
        let perStep = linesPerStep(state)
        let steps = finish(&state)
        #expect(abs(steps + 1 - 100_000 / perStep) <= 1)
        #expect(state.logs.refilterProgress == nil)
        #expect(state.logs.filtered.map(\.sequence) == fullFilter(state))
        #expect(state.logs.filtered.count == 100_000 - 100_000 / 3)
        #expect(Dashboard.render(state).textLines().joined(separator: "\n").contains("66,667 of 100,000"))
    }

    @Test func linesArrivingDuringARefilterAreNeitherLostNorDuplicated() {
        var state = history(12_000)
        query(Self.hostileQuery, &state)
        var next = 12_001
        while state.hasWorkInProgress {
            // Enough each step that the oldest lines, examined or not, are pushed out of the ring meanwhile.
            let batch = (next..<next + 1_500).map { line($0) }
            next += 1_500
            _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(batch))
            _ = DashboardReducer.reduce(into: &state, action: .frameStarted)
        }
        let sequences = state.logs.filtered.map(\.sequence)
        #expect(sequences == fullFilter(state))
        #expect(Set(sequences).count == sequences.count)
        #expect(state.logs.lines.count == 12_000)
    }

    @Test func aNewQueryRestartsTheRefilter() {
        var state = history(12_000)
        query(Self.hostileQuery, &state)
        _ = DashboardReducer.reduce(into: &state, action: .frameStarted)
        query("/b$/", &state)
        #expect(state.logs.unexamined == 12_000 - linesPerStep(state))
        finish(&state)
        #expect(state.logs.filtered.map(\.sequence) == fullFilter(state))
        #expect(state.logs.filtered.count == 12_000 / 3)
    }

    @Test func clearingTheFiltersEndsARefilter() {
        var state = history(12_000)
        query(Self.hostileQuery, &state)
        query("", &state)
        #expect(!state.hasWorkInProgress)
        #expect(state.logs.filtered.isEmpty)
        #expect(state.matchingLogs.count == 12_000)
    }

    @Test func savingWaitsForTheRefilter() {
        var state = history(12_000)
        query(Self.hostileQuery, &state)
        let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("W")))
        #expect(effects.isEmpty)
        #expect(state.screen.statusMessage?.hasPrefix("still filtering") == true)
    }

    @Test func aFrameWithNothingToDoChangesNothing() {
        var state = history(100)
        query(Self.hostileQuery, &state)
        #expect(!state.hasWorkInProgress, "a short history is filtered at once")
        let before = state
        _ = DashboardReducer.reduce(into: &state, action: .frameStarted)
        #expect(state == before)
    }
}
