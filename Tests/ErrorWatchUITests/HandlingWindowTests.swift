import Foundation
import Testing

@testable import ErrorWatchUI

/// Handling reports are kept for the last `logs.capacity` sequences reported, in first-report order, whatever the
/// bulk trimming behind ``LogsState/handling(for:)`` keeps underneath.
struct HandlingWindowTests {
    static func report(_ outcome: String) -> HandlingSummary {
        HandlingSummary(path: ["root"], outcome: outcome, handled: true)
    }

    @Test func onlyTheLastCapacityReportsAreSeen() {
        var state = DashboardState(now: Date(timeIntervalSince1970: 0), logCapacity: 10)
        for sequence in UInt64(1)...35 {
            _ = DashboardReducer.reduce(into: &state, action: .handlingReported(sequence: sequence, Self.report("r")))
            let oldestSeen = sequence > 10 ? sequence - 9 : 1
            #expect(state.logs.handling(for: oldestSeen) != nil, "\(sequence)")
            if oldestSeen > 1 { #expect(state.logs.handling(for: oldestSeen - 1) == nil, "\(sequence)") }
        }
        #expect(state.logs.handlingReports.count < 20, "trimmed in bulk")
    }

    @Test func aRepeatKeepsItsPlaceAndAForgottenOneComesBackAsNew() {
        var state = DashboardState(now: Date(timeIntervalSince1970: 0), logCapacity: 3)
        for sequence in UInt64(1)...3 {
            _ = DashboardReducer.reduce(into: &state, action: .handlingReported(sequence: sequence, Self.report("a")))
        }
        _ = DashboardReducer.reduce(into: &state, action: .handlingReported(sequence: 1, Self.report("b")))
        #expect(state.logs.handling(for: 1)?.outcome == "b", "updated in place")
        _ = DashboardReducer.reduce(into: &state, action: .handlingReported(sequence: 4, Self.report("a")))
        #expect(state.logs.handling(for: 1) == nil, "1 was first reported, so it goes first")
        _ = DashboardReducer.reduce(into: &state, action: .handlingReported(sequence: 1, Self.report("c")))
        #expect(state.logs.handling(for: 1)?.outcome == "c", "reported again after it was forgotten: new")
        #expect(state.logs.handling(for: 2) == nil)
        #expect(state.logs.handling(for: 3) != nil && state.logs.handling(for: 4) != nil)
    }
}
