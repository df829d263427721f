import ErrorStreaming
import ErrorStreamingTesting
import Foundation
import Testing

/// Errors with user messages, so alert titles read like the dashboard's.
enum BackendOutage: ClassifiedError {
    case serverUnavailable
    case offline
    case timedOut

    var category: ErrorCategory { self == .offline ? .userActionable : .transient }
    var code: ErrorCode {
        switch self {
        case .serverUnavailable: "N-503"
        case .offline: "N-1009"
        case .timedOut: "N-1001"
        }
    }
    var userMessage: String {
        switch self {
        case .serverUnavailable: "Server unavailable"
        case .offline: "You are offline"
        case .timedOut: "Request timed out"
        }
    }
}

struct AlertCoalescerTests {
    typealias Coalescer = AlertCoalescer<ManualClock>

    let clock = ManualClock()

    func at(_ seconds: Int) -> ManualClock.Instant { ManualClock.Instant(offset: .seconds(seconds)) }

    func report(_ error: any Error, origin: ErrorOrigin = .user) -> ErrorReport {
        ErrorReport(error, context: ErrorContext(origin: origin), timestamp: Date(timeIntervalSince1970: 0))
    }

    func makeCoalescer(window: Int = 60, quiet: Int = 30) -> Coalescer {
        Coalescer(clock: clock, configuration: .init(window: .seconds(window), quietPeriod: .seconds(quiet)))
    }

    @Test func repeatsWithinTheWindowAreCoalescedWithARunningCount() throws {
        var coalescer = makeCoalescer()
        guard case .alert(let first) = coalescer.receive(report(BackendOutage.serverUnavailable), at: at(0)) else {
            Issue.record("the first error should alert")
            return
        }
        #expect(first.title == "Server unavailable")
        var last: Coalescer.Decision?
        for second in 1...9 {
            last = coalescer.receive(report(BackendOutage.serverUnavailable), at: at(second))
        }
        guard case .coalesced(let alert) = last else {
            Issue.record("repeats should be coalesced, got \(String(describing: last))")
            return
        }
        #expect(alert.count == 10)
        #expect(alert.title == "Server unavailable ×10")
        #expect(alert.firstSeen == at(0))
        #expect(alert.lastSeen == at(9))
        let active = coalescer.activeAlerts(at: at(9))
        #expect(active.map(\.count) == [10])
        #expect(active.map(\.code) == ["N-503"])
    }

    @Test func alertsAgainOnlyAfterAQuietPeriodOnceTheWindowHasPassed() {
        var coalescer = makeCoalescer(window: 60, quiet: 30)
        let error = report(BackendOutage.serverUnavailable)
        #expect(isAlert(coalescer.receive(error, at: at(0))))
        // Quiet for 40 s, but still inside the 60 s window: coalesced.
        #expect(!isAlert(coalescer.receive(error, at: at(40))))
        // Past the window, but only 25 s since the last error: still the same noisy problem.
        #expect(!isAlert(coalescer.receive(error, at: at(65))))
        // Past the window and quiet for 30 s: a new alert, counting from one again.
        guard case .alert(let again) = coalescer.receive(error, at: at(95)) else {
            Issue.record("expected a new alert after the quiet period")
            return
        }
        #expect(again.count == 1)
        #expect(again.firstSeen == at(95))
    }

    @Test func activeAlertsExpireAndCanBePruned() {
        var coalescer = makeCoalescer(window: 10, quiet: 5)
        coalescer.receive(report(BackendOutage.serverUnavailable), at: at(0))
        coalescer.receive(report(BackendOutage.timedOut), at: at(8))
        #expect(coalescer.activeAlerts(at: at(9)).map(\.code) == ["N-503", "N-1001"])
        #expect(coalescer.activeAlerts(at: at(12)).map(\.code) == ["N-1001"])
        clock.advance(by: .seconds(20))
        #expect(coalescer.activeAlerts.isEmpty)
        coalescer.prune(at: at(20))
        #expect(isAlert(coalescer.receive(report(BackendOutage.timedOut), at: at(20))))
    }

    @Test func differentFingerprintsAlertSeparatelyAndFingerprintIsOverridable() {
        var coalescer = makeCoalescer()
        #expect(isAlert(coalescer.receive(report(BackendOutage.serverUnavailable), at: at(0))))
        #expect(isAlert(coalescer.receive(report(BackendOutage.timedOut), at: at(1))))
        var byCategory = Coalescer(
            clock: clock,
            configuration: .init(
                window: .seconds(60), quietPeriod: .seconds(30),
                fingerprint: { $0.classification.category.rawValue }))
        #expect(isAlert(byCategory.receive(report(BackendOutage.serverUnavailable), at: at(0))))
        #expect(!isAlert(byCategory.receive(report(BackendOutage.timedOut), at: at(1))))
        #expect(byCategory.activeAlerts(at: at(1)).map(\.count) == [2])
    }

    @Test func followUpsOfARootCauseAreSuppressedAndCounted() {
        let configuration = Coalescer.Configuration(window: .seconds(60), quietPeriod: .seconds(30))
            .suppressing(["N-1001", "N-503"], whileActive: "N-1009")
        var coalescer = Coalescer(clock: clock, configuration: configuration)
        #expect(isAlert(coalescer.receive(report(BackendOutage.offline), at: at(0))))
        let followUp = coalescer.receive(report(BackendOutage.timedOut), at: at(1))
        #expect(followUp == .suppressed(rootCause: Classification(of: BackendOutage.offline).fingerprint))
        coalescer.receive(report(BackendOutage.serverUnavailable), at: at(2))
        #expect(coalescer.activeAlerts(at: at(2)).map(\.suppressedFollowUps) == [2])
        // Once the root cause is over, the same error alerts on its own.
        #expect(isAlert(coalescer.receive(report(BackendOutage.timedOut), at: at(100))))
    }

    /// Rules set after groups exist (a new configuration) find their root among those groups; a rule of another
    /// shape (`isFollowUp:`) is asked about every active alert, as before the root codes were indexed.
    @Test func rootCausesAreFoundWhateverWhenTheRulesWereSet() {
        var coalescer = Coalescer(
            clock: clock, configuration: Coalescer.Configuration(window: .seconds(60), quietPeriod: .seconds(30)))
        #expect(isAlert(coalescer.receive(report(BackendOutage.offline), at: at(0))))
        coalescer.configuration = coalescer.configuration.suppressing(["N-1001"], whileActive: "N-1009")
        #expect(
            coalescer.receive(report(BackendOutage.timedOut), at: at(1))
                == .suppressed(rootCause: Classification(of: BackendOutage.offline).fingerprint))
        var custom = Coalescer(
            clock: clock,
            configuration: Coalescer.Configuration(
                window: .seconds(60), quietPeriod: .seconds(30),
                isFollowUp: { report, root in report.classification.code != root.code }))
        #expect(isAlert(custom.receive(report(BackendOutage.serverUnavailable), at: at(0))))
        #expect(!isAlert(custom.receive(report(BackendOutage.timedOut), at: at(1))))
        // Pruned, the root is forgotten: the follow-up alerts on its own.
        custom.prune(at: at(100))
        #expect(custom.groupCount == 0)
        #expect(isAlert(custom.receive(report(BackendOutage.timedOut), at: at(100))))
    }

    @Test func forgettingKeepsTheMostRecentlySeenGroups() {
        var coalescer = makeCoalescer()
        coalescer.receive(report(BackendOutage.offline), at: at(0))
        coalescer.receive(report(BackendOutage.timedOut), at: at(1))
        coalescer.receive(report(BackendOutage.offline), at: at(2))
        coalescer.forget(keepingMostRecent: 1)
        #expect(coalescer.groupCount == 1)
        #expect(coalescer.activeAlerts(at: at(2)).map(\.count) == [2])
        #expect(isAlert(coalescer.receive(report(BackendOutage.timedOut), at: at(3))))
    }

    @Test func backgroundErrorsAreNeverAlerted() {
        var coalescer = makeCoalescer()
        #expect(coalescer.receive(report(BackendOutage.serverUnavailable, origin: .background), at: at(0)) == .ignored)
        #expect(coalescer.activeAlerts(at: at(0)).isEmpty)
    }

    @Test func dismissedAlertAlertsAnewOnTheNextError() {
        var coalescer = makeCoalescer()
        let decision = coalescer.receive(report(BackendOutage.serverUnavailable), at: at(0))
        guard case .alert(let alert) = decision else {
            Issue.record("the first error should alert")
            return
        }
        coalescer.dismiss(alert.fingerprint)
        #expect(isAlert(coalescer.receive(report(BackendOutage.serverUnavailable), at: at(1))))
    }

    @Test func sharedCoalescerReadsItsClock() {
        let shared = SharedAlertCoalescer(
            clock: clock, configuration: .init(window: .seconds(10), quietPeriod: .seconds(10)))
        #expect(isAlert(shared.receive(report(BackendOutage.serverUnavailable))))
        clock.advance(by: .seconds(5))
        shared.receive(report(BackendOutage.serverUnavailable))
        #expect(shared.activeAlerts.map(\.lastSeen) == [at(5)])
        clock.advance(by: .seconds(15))
        #expect(shared.activeAlerts.isEmpty)
        #expect(isAlert(shared.receive(report(BackendOutage.serverUnavailable))))
    }

    private func isAlert(_ decision: Coalescer.Decision) -> Bool {
        if case .alert = decision { return true }
        return false
    }
}
