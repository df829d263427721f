import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Selection, the detail view and the Issues view.
struct DetailViewTests {
    func reduce(_ state: inout DashboardState, _ actions: DashboardAction...) -> [DashboardEffect] {
        actions.flatMap { DashboardReducer.reduce(into: &state, action: $0) }
    }

    /// The first line the open detail view shows as drawn: its scroll kept within its content at the body's size.
    func firstLineShown(_ state: DashboardState) -> Int {
        let body = DashboardLayout(for: state).body
        let lines = DetailView.lines(of: state.detail.target!, in: state, width: body.width - 4).count
        return state.detail.scroll.offset(lines: lines, rows: body.height - 2)
    }

    func press(_ state: inout DashboardState, _ keys: Key...) -> [DashboardEffect] {
        keys.flatMap { DashboardReducer.reduce(into: &state, action: .keyPressed($0)) }
    }

    static let longMessage = String(
        repeating: "upstream payment gateway rejected the capture because the idempotency key was reused; ", count: 8)

    /// A state with one remote error worth reading: a 700-character message, a stack trace, attributes,
    /// breadcrumbs of the same service and of another, and how the handler tree dealt with it.
    static func stateWithADetailedError(width: Int = 120, height: Int = 40) -> DashboardState {
        var state = DashboardState.sample(width: width, height: height, events: 40)
        let now = state.screen.now
        var crumbs: [DashboardEvent] = []
        for index in 0..<24 {
            crumbs.append(
                DashboardEvent(
                    sequence: 0, timestamp: now.addingTimeInterval(Double(index - 30) * 0.25), kind: .log,
                    level: index % 5 == 0 ? .warning : .info, source: "shop.checkout", typeName: "",
                    message: "step \(index) of checkout for order A-19", service: index % 3 == 0 ? "billing" : "shop"))
        }
        let error = DashboardEvent(
            sequence: 9_001, timestamp: now.addingTimeInterval(-1.5), kind: .error, level: .error,
            source: "checkout.pay", typeName: "PaymentError", message: String(longMessage.prefix(700)),
            userMessage: "Your card was not charged. Try again in a minute.", code: "N-503", category: .transient,
            origin: .user, attempt: 2,
            metadata: [
                "order": "A-19", "http.status": "503", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
            ],
            qualifiedTypeName: "Shop.Payments.PaymentError", fingerprint: "Shop.Payments.PaymentError#N-503",
            service: "shop", from: "socket #3 on unix:/tmp/ew.sock",
            stackTrace: "Traceback (most recent call last):\n  File \"shop/pay.py\", line 88, in capture\n"
                + "    gateway.capture(order)\nPaymentError: gateway answered 503",
            location: CodeLocation(file: "shop/pay.py", line: 88, function: "capture"), pid: 4242,
            host: "build-7")
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(crumbs + [error]))
        _ = DashboardReducer.reduce(
            into: &state,
            action: .handlingReported(
                sequence: 9_001,
                HandlingSummary(
                    path: ["root", "app", "checkout screen"], outcome: "consumed by checkout screen", handled: true)))
        return state
    }

    @Test func theNewestAlertIsSelectedUntilTheUserMoves() {
        var state = DashboardState.sample()
        let first = state.visibleAlerts[0].fingerprint
        _ = press(&state, .enter)
        #expect(state.detail.target == .alert(first))
        _ = press(&state, .escape)
        #expect(state.detail.target == nil)
        _ = press(&state, .character("j"), .character("j"))
        #expect(state.errors.selectedFingerprint == state.visibleAlerts[2].fingerprint)
        _ = press(&state, .character("k"))
        #expect(state.errors.selectedFingerprint == state.visibleAlerts[1].fingerprint)
        _ = press(&state, .character("g"))
        #expect(state.errors.selectedFingerprint == state.visibleAlerts.last?.fingerprint, "g: the oldest")
        _ = press(&state, .character("G"))
        #expect(state.errors.selectedFingerprint == nil, "G: the newest, followed again")
        _ = press(&state, .down, .enter)
        #expect(state.detail.target == .alert(state.visibleAlerts[1].fingerprint))
    }

    @Test func qClosesTheViewNotTheProgram() {
        var state = DashboardState.sample()
        _ = press(&state, .enter)
        #expect(state.detail.target != nil)
        #expect(press(&state, .character("q")).isEmpty)
        #expect(state.detail.target == nil)
        #expect(!state.quitRequested)
        #expect(press(&state, .character("q")) == [.quit])
    }

    @Test func enterInLogsOpensTheSelectedOrNewestLine() {
        var state = Self.stateWithADetailedError()
        _ = press(&state, .tab, .enter)
        #expect(state.screen.focus == .logs)
        #expect(state.detail.target == .event(9_001))
        _ = press(&state, .escape, .character("E"), .enter)
        guard case .event(let sequence) = state.detail.target else {
            Issue.record("expected an event")
            return
        }
        #expect(sequence == state.logs.selectedSequence)
    }

    @Test func logLinesGetTheirOwnNumbersSoTheyCanBeOpened() {
        let state = Self.stateWithADetailedError()
        let lines = state.logs.lines.filter { $0.source == "shop.checkout" }
        #expect(Set(lines.map(\.sequence)).count == lines.count)
        #expect(lines.allSatisfy { $0.sequence >= 1 << 63 })
    }

    @Test func theDetailShowsEverythingAndScrolls() throws {
        var state = Self.stateWithADetailedError()
        _ = state.detail.reduce(.opened(.event(9_001)))
        let text = DetailView.lines(of: .event(9_001), in: state, width: 100).map {
            $0.segments.map(\.text).joined()
        }.joined(separator: "\n")
        // The whole message, wrapped, never cut.
        let flattened = text.replacingOccurrences(of: "\n                ", with: " ")
        #expect(flattened.contains(String(Self.longMessage.prefix(700)).trimmingCharacters(in: .whitespaces)))
        #expect(!text.contains("…"))
        for expected in [
            "Shop.Payments.PaymentError", "N-503", "transient", "error", "Attempt         2", "checkout.pay",
            "pid 4242", "build-7", "socket #3 on unix:/tmp/ew.sock", "1s ago", "http.status     503",
            "order           A-19", "shop/pay.py:88 in capture", "PaymentError: gateway answered 503",
            "root → app → checkout screen", "consumed by checkout screen",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        // Breadcrumbs: the 20 lines of the same service before it, none of the other service.
        let crumbs = DetailView.breadcrumbs(before: state.logs.lines.last { $0.sequence == 9_001 }!, in: state)
        #expect(crumbs.count == 16)
        #expect(crumbs.allSatisfy { $0.service == "shop" })
        // Scrolling is clamped to the content.
        _ = press(&state, .character("G"))
        let last = firstLineShown(state)
        #expect(last > 0)
        _ = press(&state, .character("j"))
        #expect(firstLineShown(state) == last)
        _ = press(&state, .character("k"))
        #expect(firstLineShown(state) == last - 1)
    }

    @Test func anIssuesOccurrenceOpensAndEscReturnsToTheIssue() {
        var state = Self.stateWithADetailedError()
        let issue = IssueRecord(
            fingerprint: "Shop.Payments.PaymentError#N-503", typeName: "PaymentError",
            qualifiedTypeName: "Shop.Payments.PaymentError", code: "N-503", category: .transient, severity: .error,
            count: 100_000, userCount: 99_000, services: ["shop"],
            firstSeen: state.screen.now.addingTimeInterval(-3_600),
            lastSeen: state.screen.now.addingTimeInterval(-1.5), perSecond: (0..<60).map { $0 % 7 },
            perSecondEnd: state.screen.now,
            recent: [
                IssueRecord.Occurrence(
                    sequence: 9_001, timestamp: state.screen.now.addingTimeInterval(-1.5), message: "latest"),
                IssueRecord.Occurrence(
                    sequence: 17, timestamp: state.screen.now.addingTimeInterval(-90), message: "older"),
            ])
        _ = reduce(&state, .issuesSampled(changed: [issue], evicted: []))
        _ = press(&state, .character("v"))
        #expect(state.errors.view == .issues)
        _ = press(&state, .enter)
        #expect(state.detail.target == .issue(issue.fingerprint))
        _ = press(&state, .character("]"), .character("]"), .character("["))
        #expect(state.detail.occurrence == 0)
        _ = press(&state, .enter)
        #expect(state.detail.target == .event(9_001))
        _ = press(&state, .escape)
        #expect(state.detail.target == .issue(issue.fingerprint))
        _ = press(&state, .escape)
        #expect(state.detail.target == nil)
    }

    @Test func issuesSortByLastSeenOrCountAndEvictionsAreForgotten() {
        var state = DashboardState(now: fixtureStart)
        func issue(_ name: String, count: Int, age: Double) -> IssueRecord {
            IssueRecord(
                fingerprint: name, typeName: name, qualifiedTypeName: name, code: "X-0", category: .unrecoverable,
                severity: .error, count: count, firstSeen: fixtureStart, lastSeen: fixtureStart.addingTimeInterval(-age)
            )
        }
        _ = reduce(
            &state, .issuesSampled(changed: [issue("A", count: 5, age: 1), issue("B", count: 50, age: 9)], evicted: []))
        #expect(state.visibleIssues.map(\.typeName) == ["A", "B"])
        _ = press(&state, .character("O"))
        #expect(state.errors.issueOrder == .count)
        #expect(state.visibleIssues.map(\.typeName) == ["B", "A"])
        _ = reduce(&state, .issuesSampled(changed: [issue("A", count: 500, age: 0)], evicted: ["B"]))
        #expect(state.visibleIssues.map(\.typeName) == ["A"])
        #expect(state.errors.issues.first?.count == 500)
    }

    @Test func detailSnapshots() {
        for (width, height) in [(120, 40), (80, 24)] {
            var state = Self.stateWithADetailedError(width: width, height: height)
            _ = state.detail.reduce(.opened(.event(9_001)))
            assertSnapshot(of: Dashboard.render(state), as: .screen, named: "event-\(width)x\(height)")
            _ = press(&state, .pageDown)
            assertSnapshot(of: Dashboard.render(state), as: .screen, named: "event-paged-\(width)x\(height)")
        }
    }

    @Test func issuesViewSnapshot() {
        var state = Self.stateWithADetailedError(width: 120, height: 40)
        let issues = (0..<6).map { index in
            IssueRecord(
                fingerprint: "T\(index)#X-\(index)",
                typeName: [
                    "PaymentError", "StockConflict", "DeadlockDetected",
                    "KeyError", "GatewayTimeout", "SyncError",
                ][index],
                qualifiedTypeName: "Shop.T\(index)", code: ErrorCode("X", index), category: .transient,
                severity: index % 2 == 0 ? .error : .warning, count: [1_204, 87, 3, 1, 40_000, 12][index],
                services: index % 2 == 0 ? ["shop"] : ["shop", "billing"],
                firstSeen: state.screen.now.addingTimeInterval(-Double(600 + index * 90)),
                lastSeen: state.screen.now.addingTimeInterval(-Double(index * 7)),
                perSecond: (0..<60).map { ($0 * (index + 3)) % 9 }, perSecondEnd: state.screen.now)
        }
        _ = reduce(&state, .issuesSampled(changed: issues, evicted: []))
        _ = press(&state, .character("v"), .character("j"))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "issues-120x40")
        _ = press(&state, .character("O"))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "issues-by-count-120x40")
    }

    @Test func helpOverADetailViewClosesFirstAndQNeverQuitsFromUnderIt() {
        var state = DashboardState.sample()
        _ = press(&state, .enter, .character("?"))
        #expect(state.screen.showsHelp && state.detail.target != nil)
        #expect(press(&state, .character("q")).isEmpty)
        #expect(!state.screen.showsHelp && state.detail.target != nil && !state.quitRequested)
    }

    @Test func tabSkipsPanesThatAreNotOnScreen() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        _ = reduce(
            &state,
            .sourcesChanged([SourceStatus(id: "s", kind: .socket, name: "shop", state: "connected", health: .ok)]))
        #expect(DashboardLayout(for: state).status.isEmpty)
        var seen: Set<Pane> = []
        for _ in 0..<8 {
            _ = press(&state, .tab)
            seen.insert(state.screen.focus)
        }
        #expect(seen == [.errors, .logs, .metrics, .sources])
    }

    @Test func theSelectionStaysOnScreenWhenNewAlertsArriveAboveIt() {
        var state = DashboardState.sample(width: 120, height: 24)
        let rows = DashboardLayout(for: state).errorRows
        _ = press(&state, .character("j"))
        let selected = state.errors.selectedFingerprint
        for index in 0..<(rows + 3) {
            _ = reduce(
                &state,
                .alertReceived(
                    AlertRecord(
                        fingerprint: "new-\(index)", title: "New \(index)", severity: .error, category: .transient,
                        firstSeen: state.screen.now, lastSeen: state.screen.now, source: "x")))
        }
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        let title = state.errors.alerts.first { $0.fingerprint == selected }!.title
        #expect(screen.contains(String(title.prefix(20))))
    }
}
