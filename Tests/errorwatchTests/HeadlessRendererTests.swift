import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Testing

@testable import errorwatch

/// The whole app, end to end, on a simulated clock: these runs are deterministic, so they assert exact outcomes.
struct HeadlessRendererTests {
    func run(_ keys: String, for duration: Duration = .seconds(10), configuration: DemoConfiguration = .init())
        -> HeadlessRenderer.Outcome
    {
        let parsed = try! Key.parseSequence(keys).get()
        return HeadlessRenderer(
            options: .init(
                width: 120, height: 40,
                app: { DemoAttachment.make(in: $0, configuration: configuration) }, keys: parsed, duration: duration)
        ).run()
    }

    /// A counter's total in the final metrics sample (0 when it never counted).
    func counter(_ outcome: HeadlessRenderer.Outcome, _ name: String) -> Int {
        outcome.state.feeds.metrics.series.first { $0.name == name && $0.kind == .counter }.map { Int($0.value) } ?? 0
    }

    @Test func sameSeedAndKeysGiveTheSameScreen() {
        let first = run("l i l r l x s")
        let second = run("l i l r l x s")
        #expect(first.screen == second.screen)
        #expect(first.screen.snapshotText() == second.screen.snapshotText())
    }

    @Test func loginBindingSurvivesAFailure() {
        let outcome = run("l i l i l")
        #expect(counter(outcome, "auth.login.succeeded") == 3)
        #expect(counter(outcome, "auth.login.failed") == 2)
        let login = outcome.state.feeds.statuses.first { $0.name == "login" }
        #expect(login?.state == "logged in")
        let alert = outcome.state.errors.alerts.first { $0.code == "A-101" }
        #expect(alert?.count == 2)
    }

    @Test func expiredSessionGoesBackToLoginAndReloginSucceeds() {
        let outcome = run("l x", for: .seconds(8))
        #expect(outcome.state.errors.alerts.contains { $0.code == "A-401" })
        #expect(counter(outcome, "auth.login.succeeded") == 2)
        let session = outcome.state.feeds.statuses.first { $0.name == "session" }
        #expect(session?.state == "active")
    }

    @Test func serverErrorBurstIsOneAlertWithACount() {
        let outcome = run("l s", for: .seconds(8))
        let server = outcome.state.errors.alerts.filter { $0.code == "N-503" }
        #expect(server.count == 1)
        #expect((server.first?.count ?? 0) >= 6)
    }

    /// A regression test: after the network came back, a server-error burst was still hidden as a "follow-up" of
    /// the offline alert, which stays active for its window.
    @Test func serverErrorsAfterTheNetworkReturnsStillAlert() {
        let outcome = run("o l o s", for: .seconds(12))
        #expect(outcome.state.errors.alerts.contains { $0.code == "N-1" })
        #expect(outcome.state.errors.alerts.contains { $0.code == "N-503" })
    }

    @Test func backgroundSyncErrorsAreCountedButNeverAlerted() {
        // Offline for the whole run: the sync fails in the background every few seconds.
        let outcome = run("o", for: .seconds(20))
        let syncErrors = outcome.state.logs.lines.filter { $0.kind == .error && $0.source == "sync" }
        #expect(!syncErrors.isEmpty)
        #expect(syncErrors.allSatisfy { $0.origin == .background })
        #expect(!outcome.state.errors.alerts.contains { $0.source == "sync" })
        #expect(counter(outcome, "sync.failed") >= 1)
        #expect(syncErrors.allSatisfy { $0.typeName == "SyncError" })
    }

    @Test func offlineLoginRetriesAndRecoversWhenTheNetworkReturns() {
        // Offline, tap log in (it retries with backoff), network back: the same attempt succeeds.
        let outcome = run("o l o", for: .seconds(12))
        let login = outcome.state.feeds.statuses.first { $0.name == "login" }
        #expect(login?.state == "logged in")
        #expect(counter(outcome, "auth.login.succeeded") == 1)
        #expect(counter(outcome, "auth.login.failed") == 0)
        let attempts = outcome.state.logs.lines.filter { $0.code == "N-1" && $0.source == "auth.login" }
        #expect(attempts.count >= 2)
        #expect(attempts.compactMap(\.attempt) == Array(1...attempts.count))
    }

    @Test func softwareBugIsReportedFromTheImpossibleBranch() {
        let outcome = run("l b", for: .seconds(6))
        let bug = outcome.state.logs.lines.first { $0.category == .bug }
        #expect(bug?.code == "B-0")
        #expect(bug?.message.contains("legacy-enterprise") == true)
    }

    @Test func stormTotalsEqualTheErrorsAdded() {
        let configuration = DemoConfiguration(stormRate: 20_000, stormDuration: .seconds(2))
        let outcome = run("S", for: .seconds(6), configuration: configuration)
        #expect(outcome.statistics.added >= 40_000)
        #expect(outcome.state.feeds.metrics.totalErrors == Int(outcome.statistics.added))
        #expect(outcome.state.logs.lines.count <= outcome.state.logs.capacity)
    }

    @Test func quitEndsTheRunEarly() {
        let outcome = run("q l", for: .seconds(6))
        #expect(outcome.state.quitRequested)
        #expect(counter(outcome, "auth.login.succeeded") == 0)
    }

    /// Each failure domain is its own error type, so the `1`…`9` filters separate them.
    @Test func failuresOfEachDomainHaveTheirOwnType() {
        let outcome = run("l i x s o", for: .seconds(14))
        let types = Set(outcome.state.feeds.metrics.errorsByType.map(\.name))
        #expect(types.isSuperset(of: ["CredentialsError", "SessionError", "ServerError", "NetworkError"]))
        let filtered = run("l i x s 1", for: .seconds(12))
        let first = filtered.state.feeds.metrics.errorsByType[0].name
        #expect(filtered.state.filter.types == [first])
        #expect(filtered.state.logs.lines.filter(filtered.state.filter.matches).allSatisfy { $0.typeName == first })
    }

    /// The demo attaches like any app: its keys are in the state's keymap under its own title, and its statuses
    /// (not "flows") are in the Status pane.
    @Test func theDemoAttachesThroughThePublicInterface() {
        let outcome = run("l", for: .seconds(3))
        #expect(outcome.state.feeds.apps.map(\.name) == ["demo"])
        #expect(outcome.state.feeds.apps.first?.title == DemoApp.title)
        #expect(
            outcome.state.keymap.command(for: .character("s")) == .app(AppCommand(app: "demo", id: "serverErrorBurst")))
        #expect(outcome.state.feeds.statuses.map(\.name) == ["login", "session", "sync"])
        #expect(outcome.screen.snapshotText().contains("Status"))
        #expect(!outcome.screen.snapshotText().contains("Flows"))
    }

    /// Issue 11's acceptance: after `x`, the 401 alert's detail shows the handler path and the node that consumed
    /// it; the occurrence's own view shows where it was added.
    @Test func theExpiredSessionAlertShowsWhoHandledIt() {
        let outcome = run("l x Enter", for: .seconds(8))
        guard case .alert = outcome.state.detail.target else {
            Issue.record("expected the alert's detail, got \(String(describing: outcome.state.detail.target))")
            return
        }
        let text = outcome.screen.snapshotText()
        #expect(text.contains("A-401"))
        #expect(text.contains("app → logged in"))
        #expect(text.contains("consumed by logged in"))
        let opened = run("l x Enter Enter", for: .seconds(8)).screen.snapshotText()
        #expect(opened.contains("DemoApp+Flows.swift:"))
        #expect(opened.contains("consumed by logged in"))
    }

    /// `b`: the bug's detail shows the file and line of the `reportBug` call.
    @Test func theBugShowsItsFileAndLine() {
        let outcome = run("l b v Enter Enter", for: .seconds(8))
        let text = outcome.screen.snapshotText()
        #expect(text.contains("BugReport"))
        #expect(text.contains("ErrorWatchDemo/DemoApp+Flows.swift:"))
        #expect(text.contains("in runSessionFlow()"))
    }
}
