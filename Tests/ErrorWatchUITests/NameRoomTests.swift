import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Names (statuses, sources, services, types, codes) use the room their row has before they are cut: a status named
/// `payments-gateway` is not `payments-ga…` in a row with fifty empty columns (issue 24, item 7).
struct NameRoomTests {
    private func palette(_ state: DashboardState) -> Palette {
        Palette(theme: state.screen.theme, depth: state.screen.colorDepth)
    }

    private func statusLines(width: Int, names: [String]) -> [String] {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        for name in names {
            _ = DashboardReducer.reduce(
                into: &state,
                action: .statusChanged(
                    StatusEntry(
                        name: name, state: "degraded", health: .degraded, detail: "3 retries",
                        changedAt: fixtureStart)))
        }
        var buffer = ScreenBuffer(width: width, height: names.count + 2)
        StatusPane.render(state, palette: palette(state), in: buffer.area, into: &buffer)
        return buffer.textLines()
    }

    @Test func aStatusNameIsWholeWhenItsRowHasRoom() {
        let lines = statusLines(width: 60, names: ["payments-gateway", "db"])
        #expect(lines.contains { $0.contains("payments-gateway degraded") }, "\(lines)")
        #expect(!lines.joined().contains("…"))
        // The states stay aligned under the longest name.
        let states = lines.compactMap { $0.range(of: "degraded")?.lowerBound.utf16Offset(in: $0) }
        #expect(states.count == 2 && Set(states).count == 1)
    }

    @Test func aStatusNameIsCutOnlyWhenTheRowIsNarrow() {
        let lines = statusLines(width: 34, names: ["payments-gateway-europe-west"])
        #expect(lines.contains { $0.contains("…") && $0.contains("payments-") })
        #expect(lines.contains { $0.contains("degraded") })
    }

    @Test func aSourceNameIsWholeWhenItsRowHasRoom() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        let name = "checkout-api-eu-west-1-canary"
        _ = DashboardReducer.reduce(
            into: &state,
            action: .sourcesChanged([
                SourceStatus(
                    id: "socket#1", kind: .socket, name: name, detail: "pid 1", state: "connected", health: .ok,
                    events: 12)
            ]))
        var buffer = ScreenBuffer(width: 70, height: 3)
        SourcesPane.render(state, palette: palette(state), in: buffer.area, into: &buffer)
        #expect(buffer.textLines().contains { $0.contains(name + " connected") }, "\(buffer.textLines())")
    }

    @Test func logColumnsWidenForTheNamesOnScreenUpToAFifthOfTheRow() throws {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        let long = DashboardEvent(
            sequence: 1, timestamp: fixtureStart, kind: .error, level: .error, source: "payments-gateway-eu",
            typeName: "ThrottlingException", message: "rate exceeded")
        let short = DashboardEvent(
            sequence: 2, timestamp: fixtureStart, kind: .log, level: .info, source: "web", typeName: "",
            message: "ok")
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived([long, short]))
        var buffer = ScreenBuffer(width: 120, height: 4)
        LogsPane.render(state, palette: palette(state), in: buffer.area, into: &buffer)
        let lines = buffer.textLines()
        let row = try #require(lines.first { $0.contains("rate exceeded") })
        #expect(row.contains("payments-gateway-eu ThrottlingException rate exceeded"), "\(row)")
        let ok = try #require(lines.first { $0.contains(" ok") })
        // The short line's message starts in the same column as the long one's.
        let messageColumn = row.range(of: "rate exceeded").map { $0.lowerBound.utf16Offset(in: row) }
        let okColumn = ok.range(of: " ok").map { ok.index(after: $0.lowerBound).utf16Offset(in: ok) }
        #expect(messageColumn != nil && messageColumn == okColumn)

        // A name longer than a fifth of the row is cut, so the message keeps its room.
        var narrow = ScreenBuffer(width: 80, height: 4)
        LogsPane.render(state, palette: palette(state), in: narrow.area, into: &narrow)
        #expect(narrow.textLines().contains { $0.contains(" payments-gate… ") && $0.contains("rate exceeded") }, "\(narrow.textLines())")
    }

    @Test func anIssuesCodeIsShownAsSentUpToSixteenCells() throws {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        _ = DashboardReducer.reduce(
            into: &state,
            action: .issuesSampled(
                changed: [
                    IssueRecord(
                        fingerprint: "a", typeName: "ConnectionReset", qualifiedTypeName: "ConnectionReset",
                        code: ErrorCode("X", 0), category: nil, severity: .error, count: 4,
                        firstSeen: fixtureStart, lastSeen: fixtureStart, codeText: "ERR_CONN_RESET"),
                    IssueRecord(
                        fingerprint: "b", typeName: "Timeout", qualifiedTypeName: "Timeout",
                        code: ErrorCode("N", 503), category: .transient, severity: .error, count: 2,
                        firstSeen: fixtureStart, lastSeen: fixtureStart),
                ], evicted: []))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        var buffer = ScreenBuffer(width: 100, height: 5)
        ErrorsPane.render(state, palette: palette(state), in: buffer.area, into: &buffer)
        let lines = buffer.textLines()
        let reset = try #require(lines.first { $0.contains("ConnectionReset") }, "\(lines)")
        #expect(reset.contains("ERR_CONN_RESET"))
        let timeout = try #require(lines.first { $0.contains("Timeout") })
        #expect(
            reset.range(of: "ERR_CONN_RESET")?.lowerBound.utf16Offset(in: reset)
                == timeout.range(of: "N-503")?.lowerBound.utf16Offset(in: timeout))
    }
}
