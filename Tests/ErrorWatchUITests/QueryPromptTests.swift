import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// The `/` prompt: applying, rejecting with a position, cancelling, clearing; counts and highlights.
struct QueryPromptTests {
    func press(_ state: inout DashboardState, _ text: String) {
        for character in text {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(character)))
        }
    }

    func press(_ state: inout DashboardState, _ key: Key) {
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
    }

    @Test func anInvalidQueryIsReportedWithItsPositionAndThePreviousOneStays() {
        var state = DashboardState.sample()
        press(&state, "/")
        press(&state, "level:warning+")
        press(&state, .enter)
        #expect(state.filter.query.text == "level:warning+")
        press(&state, "/")
        #expect(state.filter.draft == "level:warning+", "the prompt opens with the current query")
        press(&state, " owner:me")
        press(&state, .enter)
        #expect(state.filter.isEditing, "the prompt stays open on an error")
        #expect(state.filter.error?.position == 15)
        #expect(state.filter.error?.description.contains("unknown field") == true)
        #expect(state.filter.query.text == "level:warning+", "the previous query stays in force")
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "invalid-120x40")
        press(&state, .escape)
        #expect(!state.filter.isEditing)
        #expect(state.filter.query.text == "level:warning+")
        press(&state, .escape)
        #expect(state.filter.query.isEmpty, "Esc in the dashboard clears the query")
    }

    @Test func everySyntaxFiltersLogsAlertsAndIssuesWithCounts() {
        var state = DashboardState.sample()
        let total = state.logs.lines.count
        press(&state, "/")
        press(&state, "type:SessionError -origin:background")
        press(&state, .enter)
        #expect(!state.logs.filtered.isEmpty)
        #expect(state.logs.filtered.allSatisfy { $0.typeName == "SessionError" && $0.origin == .user })
        #expect(state.visibleAlerts.map(\.typeName) == ["SessionError"])
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("\(state.logs.filtered.count) of \(total)"))
        #expect(text.contains("1 of 5 alerts"))
        press(&state, .escape)
        press(&state, "/")
        press(&state, "/token.*expired/")
        press(&state, .enter)
        #expect(!state.logs.filtered.isEmpty)
        #expect(state.logs.filtered.allSatisfy { $0.message.lowercased().contains("token") })
    }

    @Test func arrivingLinesAreFilteredAsTheyCome() {
        var state = DashboardState.sample(events: 10)
        press(&state, "/")
        press(&state, "code:N-5")
        press(&state, .enter)
        let before = state.logs.filtered.count
        let incoming = (0..<30).map { DashboardEvent.fixture($0, at: state.screen.now) }
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(incoming))
        #expect(
            state.logs.filtered.count == before
                + incoming.filter { $0.code?.description.hasPrefix("N-5") == true }.count
        )
        #expect(Array(state.logs.filtered) == state.logs.lines.filter { state.filter.matches($0) })
    }

    @Test func matchesAreHighlightedInLogs() {
        var state = DashboardState.sample()
        press(&state, "/")
        press(&state, "unavailable")
        press(&state, .enter)
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "highlights-120x40")
    }
}
