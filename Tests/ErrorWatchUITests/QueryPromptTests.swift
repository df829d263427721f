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
        #expect(state.query.text == "level:warning+")
        press(&state, "/")
        #expect(state.queryDraft == "level:warning+", "the prompt opens with the current query")
        press(&state, " owner:me")
        press(&state, .enter)
        #expect(state.isEditingFilter, "the prompt stays open on an error")
        #expect(state.queryError?.position == 15)
        #expect(state.queryError?.description.contains("unknown field") == true)
        #expect(state.query.text == "level:warning+", "the previous query stays in force")
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "invalid-120x40")
        press(&state, .escape)
        #expect(!state.isEditingFilter)
        #expect(state.query.text == "level:warning+")
        press(&state, .escape)
        #expect(state.query.isEmpty, "Esc in the dashboard clears the query")
    }

    @Test func everySyntaxFiltersLogsAlertsAndIssuesWithCounts() {
        var state = DashboardState.sample()
        let total = state.logs.count
        press(&state, "/")
        press(&state, "type:SessionError -origin:background")
        press(&state, .enter)
        #expect(!state.filteredLogs.isEmpty)
        #expect(state.filteredLogs.allSatisfy { $0.typeName == "SessionError" && $0.origin == .user })
        #expect(state.visibleAlerts.map(\.typeName) == ["SessionError"])
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("\(state.filteredLogs.count) of \(total)"))
        #expect(text.contains("1 of 5 alerts"))
        press(&state, .escape)
        press(&state, "/")
        press(&state, "/token.*expired/")
        press(&state, .enter)
        #expect(!state.filteredLogs.isEmpty)
        #expect(state.filteredLogs.allSatisfy { $0.message.lowercased().contains("token") })
    }

    @Test func arrivingLinesAreFilteredAsTheyCome() {
        var state = DashboardState.sample(events: 10)
        press(&state, "/")
        press(&state, "code:N-5")
        press(&state, .enter)
        let before = state.filteredLogs.count
        let incoming = (0..<30).map { DashboardEvent.fixture($0, at: state.now) }
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(incoming))
        #expect(
            state.filteredLogs.count == before + incoming.filter { $0.code?.description.hasPrefix("N-5") == true }.count
        )
        #expect(Array(state.filteredLogs) == state.logs.filter { state.matches($0) })
    }

    @Test func matchesAreHighlightedInLogs() {
        var state = DashboardState.sample()
        press(&state, "/")
        press(&state, "unavailable")
        press(&state, .enter)
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "highlights-120x40")
    }
}
