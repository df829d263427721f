import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

struct SemanticVersionTests {
    /// An occurrence that happened well before the resolution (a line of last week's log opened now) leaves the
    /// issue resolved; one within a clock's skew of it, or after, regresses it.
    @Test func anOccurrenceFromBeforeTheResolutionDoesNotRegress() {
        let resolvedAt = Date(timeIntervalSince1970: 1_800_000_000)
        var triage = IssueTriage()
        triage.apply(.resolve, count: 3, newestVersion: nil, at: resolvedAt)
        let old = triage.occurred(version: nil, versionFirstSeen: nil, count: 4, at: resolvedAt.addingTimeInterval(-86_400))
        #expect(!old && triage.status == .resolved)
        let skewed = triage.occurred(version: nil, versionFirstSeen: nil, count: 5, at: resolvedAt.addingTimeInterval(-30))
        #expect(skewed && triage.status == .regressed)
    }

    @Test func numbersCompareAsNumbers() throws {
        #expect(try #require(SemanticVersion("1.10.0")) > #require(SemanticVersion("1.9.9")))
        #expect(try #require(SemanticVersion("2.0.0")) > #require(SemanticVersion("1.99.99")))
        #expect(try #require(SemanticVersion("v1.2")) == #require(SemanticVersion("1.2.0")))
    }

    @Test func preReleasesComeBeforeTheirRelease() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
            "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
        ]
        let versions = try ordered.map { try #require(SemanticVersion($0)) }
        for (lower, higher) in zip(versions, versions.dropFirst()) { #expect(lower < higher) }
        #expect(versions.shuffled().sorted().map(\.description) == ordered)
    }

    @Test func buildMetadataIsIgnored() throws {
        #expect(try #require(SemanticVersion("1.2.3+build.5")) == #require(SemanticVersion("1.2.3+build.9")))
    }

    @Test func unparsableVersionsAreRefused() {
        for text in ["", "abc123", "7", "1.2.3.4", "1..2", "1.2.x", "2024-06-01 nightly", "1.0.0-", "1.0.0-a..b"] {
            #expect(SemanticVersion(text) == nil, "\(text)")
        }
    }

    @Test func newestPrefersSemanticVersionsElseFirstSeen() {
        let t = Date(timeIntervalSince1970: 1_000)
        let versions = [
            IssueVersion(version: "1.10.0", firstSeen: t, count: 1),
            IssueVersion(version: "1.9.0", firstSeen: t.addingTimeInterval(10), count: 1),
            IssueVersion(version: "nightly", firstSeen: t.addingTimeInterval(20), count: 1),
        ]
        #expect(IssueVersion.newest(in: versions)?.version == "1.10.0")
        let unparsable = [
            IssueVersion(version: "blue", firstSeen: t, count: 1),
            IssueVersion(version: "green", firstSeen: t.addingTimeInterval(5), count: 1),
        ]
        #expect(IssueVersion.newest(in: unparsable)?.version == "green")
    }
}

struct IssueTriageTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func resolveThenAnyOccurrenceRegresses() {
        var triage = IssueTriage()
        triage.apply(.resolve, count: 3, newestVersion: nil, at: t0)
        #expect(triage.status == .resolved)
        do {
            let changed = triage.occurred(version: nil, versionFirstSeen: nil, count: 4, at: t0.addingTimeInterval(1))
            #expect(changed)
        }
        #expect(triage.status == .regressed)
        #expect(triage.changedAt == t0.addingTimeInterval(1))
        // Regressed stays regressed on more occurrences.
        do {
            let changed = triage.occurred(version: nil, versionFirstSeen: nil, count: 5, at: t0.addingTimeInterval(2))
            #expect(!changed)
        }
    }

    @Test func resolvedInNextReleaseRegressesOnlyInANewerVersion() {
        var triage = IssueTriage()
        triage.apply(.resolveInNextRelease, count: 3, newestVersion: "1.9.9", at: t0)
        #expect(triage.resolvedThrough == "1.9.9")
        // Old deployments still running: not a regression.
        do {
            let changed = triage.occurred(
                version: "1.9.9", versionFirstSeen: t0.addingTimeInterval(-60), count: 4, at: t0)
            #expect(!changed)
        }
        do {
            let changed = triage.occurred(
                version: "1.9.0", versionFirstSeen: t0.addingTimeInterval(-90), count: 5, at: t0)
            #expect(!changed)
        }
        // No version: nothing says it is newer.
        do {
            let changed = triage.occurred(version: nil, versionFirstSeen: nil, count: 6, at: t0)
            #expect(!changed)
        }
        #expect(triage.status == .resolved)
        // A pre-release of the next version is newer than 1.9.9.
        var pre = triage
        do {
            let changed = pre.occurred(version: "1.10.0-rc.1", versionFirstSeen: nil, count: 7, at: t0)
            #expect(changed)
        }
        #expect(pre.status == .regressed)
        do {
            let changed = triage.occurred(version: "1.10.0", versionFirstSeen: nil, count: 7, at: t0)
            #expect(changed)
        }
        #expect(triage.status == .regressed)
    }

    @Test func unparsableVersionsRegressByFirstSeenOrder() {
        var triage = IssueTriage()
        triage.apply(.resolveInNextRelease, count: 3, newestVersion: "blue", at: t0)
        // "green" was seen before the resolution: an old deployment.
        do {
            let changed = triage.occurred(
                version: "green", versionFirstSeen: t0.addingTimeInterval(-5), count: 4, at: t0.addingTimeInterval(1))
            #expect(!changed)
        }
        // "purple" is first seen now, after it: a newer release.
        do {
            let changed = triage.occurred(
                version: "purple", versionFirstSeen: nil, count: 5, at: t0.addingTimeInterval(2))
            #expect(changed)
        }
        #expect(triage.status == .regressed)
    }

    @Test func resolvedInNextReleaseWithoutAnyVersionRegressesOnTheFirstVersionedOccurrence() {
        var triage = IssueTriage()
        triage.apply(.resolveInNextRelease, count: 1, newestVersion: nil, at: t0)
        do {
            let changed = triage.occurred(version: nil, versionFirstSeen: nil, count: 2, at: t0)
            #expect(!changed)
        }
        do {
            let changed = triage.occurred(version: "1.0.0", versionFirstSeen: nil, count: 3, at: t0)
            #expect(changed)
        }
    }

    @Test func ignoreForeverForATimeAndUntilACount() {
        var forever = IssueTriage()
        forever.apply(.ignore(.forever), count: 1, newestVersion: nil, at: t0)
        do {
            let changed = forever.occurred(
                version: nil, versionFirstSeen: nil, count: 1_000, at: t0.addingTimeInterval(1e6))
            #expect(!changed)
        }
        do {
            let changed = forever.expire(at: t0.addingTimeInterval(1e7))
            #expect(!changed)
        }
        #expect(forever.status == .ignored)

        var hour = IssueTriage()
        hour.apply(.ignore(.duration(3_600)), count: 1, newestVersion: nil, at: t0)
        #expect(hour.ignoredUntil == t0.addingTimeInterval(3_600))
        do {
            let changed = hour.expire(at: t0.addingTimeInterval(3_599))
            #expect(!changed)
        }
        do {
            let changed = hour.expire(at: t0.addingTimeInterval(3_600))
            #expect(changed)
        }
        #expect(hour.status == .unresolved)
        #expect(hour.ignoredUntil == nil)

        var count = IssueTriage()
        count.apply(.ignore(.occurrences(100)), count: 50, newestVersion: nil, at: t0)
        #expect(count.ignoredUntilCount == 150)
        do {
            let changed = count.occurred(version: nil, versionFirstSeen: nil, count: 149, at: t0)
            #expect(!changed)
        }
        do {
            let changed = count.occurred(version: nil, versionFirstSeen: nil, count: 150, at: t0)
            #expect(changed)
        }
        #expect(count.status == .unresolved)
    }

    @Test func reopenClearsEverythingAndOpenedOnlyMarks() {
        var triage = IssueTriage()
        triage.apply(.resolveInNextRelease, count: 1, newestVersion: "1.0.0", at: t0)
        triage.apply(.markOpened, count: 1, newestVersion: "1.0.0", at: t0.addingTimeInterval(5))
        #expect(triage.status == .resolved)
        #expect(triage.opened)
        #expect(triage.changedAt == t0)
        triage.apply(.reopen, count: 1, newestVersion: "1.0.0", at: t0.addingTimeInterval(10))
        #expect(triage == IssueTriage(status: .unresolved, changedAt: t0.addingTimeInterval(10), opened: true))
        // A regressed issue resolved again, then ignored, then reopened: every transition from every state.
        for start in IssueStatus.allCases {
            for action in [IssueTriageAction.resolve, .resolveInNextRelease, .ignore(.forever), .reopen] {
                var t = IssueTriage(status: start)
                t.apply(action, count: 1, newestVersion: nil, at: t0)
                let expected: IssueStatus =
                    switch action {
                    case .resolve, .resolveInNextRelease: .resolved
                    case .ignore: .ignored
                    default: .unresolved
                    }
                #expect(t.status == expected, "\(start) + \(action)")
            }
        }
    }

    @Test func newMeansFirstSeenWithinADayAndOpen() {
        let triage = IssueTriage()
        #expect(triage.isNew(firstSeen: t0, at: t0.addingTimeInterval(23 * 3_600)))
        #expect(!triage.isNew(firstSeen: t0, at: t0.addingTimeInterval(24 * 3_600)))
        #expect(!IssueTriage(status: .resolved).isNew(firstSeen: t0, at: t0))
    }

    @Test func durationsParseAndPrint() {
        #expect(IssueTriageAction.parseDuration("1h") == 3_600)
        #expect(IssueTriageAction.parseDuration("1d") == 86_400)
        #expect(IssueTriageAction.parseDuration("90s") == 90)
        for bad in ["", "h", "0h", "-1h", "1y", "1.5h", "99999999999999999w"] {
            #expect(IssueTriageAction.parseDuration(bad) == nil, "\(bad)")
        }
        #expect(IssueTriageAction.durationText(3_600) == "1h")
        #expect(IssueTriageAction.durationText(90) == "90s")
    }
}

struct IssueQueryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func issue(
        _ fingerprint: String, status: IssueStatus, firstSeen: TimeInterval, versions: [String] = [],
        env: [String] = []
    ) -> IssueRecord {
        var record = IssueRecord(
            fingerprint: fingerprint, typeName: fingerprint, qualifiedTypeName: fingerprint, code: ErrorCode("X", 1),
            category: .bug, severity: .error, count: 1, firstSeen: now.addingTimeInterval(firstSeen),
            lastSeen: now)
        record.triage.status = status
        record.versions = versions.enumerated().map {
            IssueVersion(version: $0.element, firstSeen: now.addingTimeInterval(Double($0.offset)), count: 1)
        }
        record.environments = env
        return record
    }

    func visible(_ query: String, _ issues: [IssueRecord]) throws -> [String] {
        var filter = FilterState()
        _ = filter.reduce(.submitted(.success(try Query.parse(query).get())))
        var errors = ErrorsState()
        _ = errors.reduce(.issuesSampled(changed: issues, evicted: []))
        return errors.visibleIssues(filter, at: now).map(\.fingerprint).sorted()
    }

    @Test func statusTermsAndTheDefaultHidingOfResolvedAndIgnored() throws {
        let issues = [
            issue("fresh", status: .unresolved, firstSeen: -60),
            issue("old", status: .unresolved, firstSeen: -3 * 86_400),
            issue("back", status: .regressed, firstSeen: -3 * 86_400),
            issue("fixed", status: .resolved, firstSeen: -60),
            issue("noise", status: .ignored, firstSeen: -60),
        ]
        #expect(try visible("", issues) == ["back", "fresh", "old"])
        #expect(try visible("is:new", issues) == ["fresh"])
        #expect(try visible("is:regressed", issues) == ["back"])
        #expect(try visible("is:resolved", issues) == ["fixed"])
        #expect(try visible("is:ignored", issues) == ["noise"])
        #expect(try visible("is:unresolved", issues) == ["back", "fresh", "old"])
        #expect(try visible("-is:unresolved", issues) == ["fixed", "noise"])
    }

    @Test func versionAndEnvironmentTerms() throws {
        let issues = [
            issue("a", status: .unresolved, firstSeen: -60, versions: ["1.9.0", "1.10.0"], env: ["prod"]),
            issue("b", status: .unresolved, firstSeen: -60, versions: ["1.9.0"], env: ["staging"]),
            issue("c", status: .unresolved, firstSeen: -3 * 86_400, versions: ["1.10.0"]),
        ]
        #expect(try visible("version:1.9", issues) == ["a", "b"])
        #expect(try visible("version:latest", issues) == ["a", "c"])
        #expect(try visible("is:new version:latest", issues) == ["a"])
        #expect(try visible("env:prod", issues) == ["a"])
        #expect(try visible("-env:prod", issues) == ["b", "c"])
    }

    @Test func statusTermsLeaveLogLinesAlone() throws {
        let query = try Query.parse("is:resolved").get()
        #expect(query.matches(QuerySubject(type: "X")))
        let excluded = try Query.parse("-is:new").get()
        #expect(excluded.matches(QuerySubject(type: "X")))
        if case .failure(let error) = Query.parse("is:fixed") {
            #expect(error.message.contains("unknown status"))
        } else {
            Issue.record("is:fixed parsed")
        }
    }
}

struct TriageKeyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func state(with fingerprints: [String]) -> DashboardState {
        var state = DashboardState(width: 120, height: 40, now: now)
        let issues = fingerprints.enumerated().map { index, fingerprint in
            IssueRecord(
                fingerprint: fingerprint, typeName: fingerprint, qualifiedTypeName: fingerprint,
                code: ErrorCode("X", 1), category: .bug, severity: .error, count: 10, firstSeen: now,
                lastSeen: now.addingTimeInterval(-Double(index)))
        }
        _ = DashboardReducer.reduce(into: &state, action: .issuesSampled(changed: issues, evicted: []))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        return state
    }

    func press(_ state: inout DashboardState, _ key: Character) -> [DashboardEffect] {
        DashboardReducer.reduce(into: &state, action: .keyPressed(.character(key)))
    }

    @Test func resolveActsOnTheSelectedIssueAndHidesIt() {
        var state = state(with: ["A", "B"])
        _ = press(&state, "j")
        #expect(press(&state, "R") == [.triage(fingerprint: "B", .resolve)])
        #expect(state.errors.issues.first { $0.fingerprint == "B" }?.triage.status == .resolved)
        #expect(state.visibleIssues.map(\.fingerprint) == ["A"])
        #expect(state.screen.statusMessage == "B: resolved")
        // Reopened, it is listed again.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        for c in "is:resolved" { _ = press(&state, c) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.visibleIssues.map(\.fingerprint) == ["B"])
        #expect(press(&state, "U") == [.triage(fingerprint: "B", .reopen)])
        #expect(state.errors.issues.first { $0.fingerprint == "B" }?.triage.status == .unresolved)
    }

    @Test func snoozeStepsFromAnHourToADayToAWeek() {
        var state = state(with: ["A"])
        // With `is:ignored`, the snoozed issue stays selected.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        for c in "type:A" { _ = press(&state, c) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(press(&state, "Z") == [.triage(fingerprint: "A", .ignore(.duration(3_600)))])
        // Hidden now; open it in a detail view to press again, as a user would from `is:ignored`.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        for _ in 0..<6 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.backspace)) }
        for c in "is:ignored" { _ = press(&state, c) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .issue("A"))
        #expect(press(&state, "Z") == [.triage(fingerprint: "A", .ignore(.duration(86_400)))])
        #expect(press(&state, "Z") == [.triage(fingerprint: "A", .ignore(.duration(604_800)))])
        #expect(state.errors.issues.first?.triage.ignoredUntil == now.addingTimeInterval(604_800))
        // After a week, back to an hour: the key cycles.
        #expect(press(&state, "Z") == [.triage(fingerprint: "A", .ignore(.duration(3_600)))])
    }

    @Test func openingAnIssueMarksItOpenedOnce() {
        var state = state(with: ["A"])
        let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(effects == [.triage(fingerprint: "A", .markOpened)])
        #expect(state.errors.issues.first?.triage.opened == true)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        #expect(DashboardReducer.reduce(into: &state, action: .keyPressed(.enter)).isEmpty)
    }

    @Test func triageKeysWithoutAnIssueSaySo() {
        var state = DashboardState(width: 120, height: 40, now: now)
        #expect(press(&state, "R").isEmpty)
        #expect(state.screen.statusMessage == "select an issue first (v: Issues view)")
    }
}
