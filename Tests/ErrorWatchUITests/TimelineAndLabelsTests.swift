import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Issue 32, items 1 and 6: Logs is one timeline whatever order lines arrive in, breadcrumbs are what came before,
/// and every label says what is known.
struct TimelineAndLabelsTests {
    static func line(
        _ seconds: Double, _ message: String, level: ErrorSeverity = .info, from: String? = "file app.log",
        channel: EventChannel? = .file
    ) -> DashboardEvent {
        var event = DashboardEvent(
            sequence: 0, timestamp: fixtureStart.addingTimeInterval(seconds), kind: level >= .error ? .error : .log,
            level: level, source: "shop.db", typeName: level >= .error ? "Error" : "", message: message, from: from,
            receivedAt: fixtureStart.addingTimeInterval(900_000))
        event.provenance?.channel = channel
        return event
    }

    static func reduce(_ state: inout DashboardState, _ actions: DashboardAction...) {
        for action in actions { _ = DashboardReducer.reduce(into: &state, action: action) }
    }

    @Test func linesArrivingOutOfOrderAreKeptInTimeOrder() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        // An error batch behind the log lines around it, then a late line from another file.
        Self.reduce(
            &state, .eventsReceived([Self.line(1, "a"), Self.line(4, "d")]),
            .eventsReceived([Self.line(2, "b", level: .error), Self.line(5, "e", level: .error)]),
            .eventReceived(Self.line(3, "c", from: "file other.log")))
        #expect(state.logs.lines.map(\.message) == ["a", "b", "c", "d", "e"])
        // Lines of one time keep their arrival order.
        Self.reduce(&state, .eventsReceived([Self.line(3, "c2"), Self.line(3, "c3")]))
        #expect(state.logs.lines.map(\.message) == ["a", "b", "c", "c2", "c3", "d", "e"])
    }

    @Test func aLineOlderThanAFullRingIsCountedNotShownOutOfPlace() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        state.logs = LogsState(capacity: 3)
        Self.reduce(&state, .eventsReceived([Self.line(10, "x"), Self.line(11, "y"), Self.line(12, "z")]))
        Self.reduce(&state, .eventReceived(Self.line(1, "too old")), .eventReceived(Self.line(11.5, "in between")))
        #expect(state.logs.lines.map(\.message) == ["y", "in between", "z"])
        #expect(state.logs.olderThanKept == 1)
        #expect(Dashboard.render(state).textLines().contains { $0.contains("1 older not kept") })
    }

    @Test func aPausedViewStaysPutWhenALineLandsAboveOrBelowIt() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        Self.reduce(&state, .eventsReceived((0..<100).map { Self.line(Double($0), "line \($0)") }))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(" ")))
        let rows = DashboardLayout(for: state).logRows
        let frozen = LogsPane.visibleRows(state.logs, filter: state.filter, count: rows)
        Self.reduce(&state, .eventReceived(Self.line(200, "newest")), .eventReceived(Self.line(99.5, "late")))
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: rows) == frozen)
        #expect(state.logs.arrivedWhilePaused == 2)
    }

    @Test func breadcrumbsAreWhatCameBeforeTheError() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart.addingTimeInterval(60))
        var error = Self.line(5, "payment failed", level: .error)
        error.sequence = 77
        // The lines after the error arrive first (another batch), the ones before it after it.
        Self.reduce(
            &state, .eventsReceived([Self.line(6, "after one"), Self.line(7, "after two")]),
            .eventReceived(error), .eventsReceived([Self.line(3, "before one"), Self.line(4, "before two")]))
        let text = DetailView.lines(of: .event(77), in: state, width: 100).map { $0.segments.map(\.text).joined() }
        #expect(text.contains("Breadcrumbs (last 2 of file app.log before it)"))
        #expect(text.contains { $0.contains("before one") } && text.contains { $0.contains("before two") })
        #expect(!text.contains { $0.contains("after one") || $0.contains("after two") })
    }

    @Test func clockSkewIsJudgedOnlyForLiveSources() {
        // Read 10 days after it was written.
        let fromFile = Self.line(0, "old line")
        #expect(fromFile.skew == nil)
        let fromSocket = Self.line(0, "old line", from: "socket #3", channel: .socket)
        #expect(fromSocket.skew != nil)
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        var event = fromFile
        event.sequence = 5
        Self.reduce(&state, .eventReceived(event))
        let text = DetailView.lines(of: .event(5), in: state, width: 100).map { $0.segments.map(\.text).joined() }
        #expect(!text.contains { $0.hasPrefix("Clock skew") })
        #expect(text.contains { $0.hasPrefix("From") && $0.contains("file app.log") })
        #expect(text.contains { $0.hasPrefix("Service") && $0.contains("not named by the producer") })
        #expect(!text.contains { $0.hasPrefix("Source") && $0.contains("remote") })
    }

    @Test func anOriginNobodySentIsNotShown() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        var event = Self.line(0, "boom", level: .error)
        event.sequence = 9
        event.provenance?.originSent = false
        var said = event
        said.sequence = 10
        said.provenance?.originSent = true
        Self.reduce(&state, .eventsReceived([event, said]))
        func text(_ sequence: UInt64) -> [String] {
            DetailView.lines(of: .event(sequence), in: state, width: 100).map { $0.segments.map(\.text).joined() }
        }
        #expect(!text(9).contains { $0.hasPrefix("Origin") })
        #expect(text(10).contains { $0.hasPrefix("Origin") && $0.contains("user") })
    }

    @Test func anAlertSaysItsProducersTimesAndAgesByWhenItWasRead() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart.addingTimeInterval(10))
        let alert = AlertRecord(
            fingerprint: "f", title: "db query timed out", severity: .error, category: nil, count: 3,
            firstSeen: fixtureStart.addingTimeInterval(-8 * 86_400), lastSeen: fixtureStart.addingTimeInterval(-7 * 86_400),
            source: "shop.db", firstReceived: fixtureStart, lastReceived: fixtureStart.addingTimeInterval(5),
            services: ["shop"])
        Self.reduce(&state, .alertReceived(alert))
        #expect(state.errors.alerts.count == 1)
        // Not expired by its old times: it was read 5 s ago.
        Self.reduce(&state, .tick(fixtureStart.addingTimeInterval(12)))
        #expect(state.errors.alerts.count == 1)
        let text = DetailView.lines(of: .alert("f"), in: state, width: 110).map { $0.segments.map(\.text).joined() }
        let first = text.first { $0.hasPrefix("First seen") } ?? ""
        #expect(first.contains(Format.timestamp(alert.firstSeen)) && first.contains("received"))
    }

    @Test func anIssueReadFromAFileSaysSoAndNotThisProcess() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        var issue = IssueRecord(
            fingerprint: "Error##shop.db#x", typeName: "Error", qualifiedTypeName: "Error", code: ErrorCode("X", 0),
            category: nil, severity: .error, count: 2, firstSeen: fixtureStart, lastSeen: fixtureStart, codeText: "")
        issue.readFrom = ["file app.log", "file app.json.log"]
        var local = issue
        local.fingerprint = "Local#X-0"
        local.readFrom = ["this process"]
        Self.reduce(&state, .issuesSampled(changed: [issue, local], evicted: []))
        func text(_ fingerprint: String) -> [String] {
            DetailView.lines(of: .issue(fingerprint), in: state, width: 100).map { $0.segments.map(\.text).joined() }
        }
        #expect(text("Error##shop.db#x").contains { $0.hasPrefix("Services") && $0.contains("none named") })
        #expect(text("Error##shop.db#x").contains { $0.hasPrefix("Read from") && $0.contains("file app.json.log") })
        #expect(text("Local#X-0").contains { $0.hasPrefix("Services") && $0.contains("this process") })
    }

    @Test func attributeKeysTakeTheRoomTheyNeed() {
        var state = DashboardState(width: 200, height: 50, now: fixtureStart)
        var event = Self.line(0, "boom", level: .error)
        event.sequence = 3
        event.metadata = ["exception.escaped": "false", "service.instance.id": "a1b2"]
        Self.reduce(&state, .eventReceived(event))
        let text = DetailView.lines(of: .event(3), in: state, width: 190).map { $0.segments.map(\.text).joined() }
        #expect(text.contains { $0.hasPrefix("exception.escaped ") })
        #expect(text.contains { $0.hasPrefix("service.instance.id ") })
    }
}
