import ErrorStreaming
import ErrorWatchUI
import Foundation
import GRDB
import Testing

@testable import ErrorWatchStore

/// A fresh folder under /tmp/ew25-store-tests/ for one test's store; never the user's state folder.
func scratchFolder(_ name: String = #function) -> String {
    let folder = "/tmp/ew25-store-tests/\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

func record(_ fingerprint: String, at date: Date, type: String = "PaymentError") -> IssueRecord {
    IssueRecord(
        fingerprint: fingerprint, typeName: type, qualifiedTypeName: "Shop." + type, code: ErrorCode("P", 402),
        category: .transient, severity: .error, count: 0, services: ["checkout"], firstSeen: date, lastSeen: date)
}

func delta(
    _ fingerprint: String, count: Int, at date: Date, version: String? = nil, message: String = "card declined",
    triage: (IssueTriage, action: String, actor: String)? = nil
) -> IssueDelta {
    IssueDelta(
        record: record(fingerprint, at: date), title: "PaymentError: \(message)", count: count, userCount: 1,
        hours: [Int(date.timeIntervalSince1970 / 3_600): count],
        versions: version.map { [$0: (date, count)] } ?? [:], environments: ["prod"],
        occurrences: [StoredOccurrence(timestamp: date, message: message, service: "checkout", version: version)],
        triage: triage)
}

struct IssueStoreTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func restartRoundTripKeepsCountsTriageVersionsAndOccurrences() throws {
        let path = scratchFolder() + "/store.sqlite"
        do {
            let store = try IssueStore.open(at: path)
            try store.write(StoreBatch(deltas: [delta("P-402", count: 5, at: start, version: "1.2.0")]))
            var triage = IssueTriage()
            triage.apply(.resolve, count: 5, newestVersion: "1.2.0", at: start.addingTimeInterval(60))
            try store.write(
                StoreBatch(deltas: [
                    delta(
                        "P-402", count: 2, at: start.addingTimeInterval(30), version: "1.3.0", message: "timeout",
                        triage: (triage, "resolved", "test")),
                    delta("N-503", count: 1, at: start.addingTimeInterval(40)),
                ]))
        }
        // A new process: nothing in memory, everything from the file.
        let reopened = try IssueStore.open(at: path)
        #expect(reopened.openingNotice == nil)
        let (sequence, issues) = try reopened.issues(changedAfter: 0)
        #expect(sequence == 2)
        #expect(issues.map(\.record.fingerprint) == ["N-503", "P-402"])
        let payment = try #require(issues.first { $0.record.fingerprint == "P-402" })
        #expect(payment.record.count == 7)
        #expect(payment.record.userCount == 2)
        #expect(payment.record.firstSeen == start)
        #expect(payment.record.lastSeen == start.addingTimeInterval(30))
        #expect(payment.title == "PaymentError: timeout")
        #expect(payment.record.triage.status == .resolved)
        #expect(payment.record.versions.map(\.version) == ["1.2.0", "1.3.0"])
        #expect(payment.record.versions.map(\.count) == [5, 2])
        #expect(payment.record.environments == ["prod"])
        let full = try reopened.issue(id: payment.id)
        #expect(full.occurrences.map(\.message) == ["timeout", "card declined"])
        #expect(full.occurrences.first?.version == "1.3.0")
        #expect(full.history.map(\.action) == ["resolved"])
        // Counts continue where they stopped.
        try reopened.write(StoreBatch(deltas: [delta("P-402", count: 3, at: start.addingTimeInterval(90))]))
        #expect(try reopened.issue(id: payment.id).record.count == 10)
        #expect(try reopened.issues(changedAfter: sequence).issues.map(\.record.fingerprint) == ["P-402"])
    }

    @Test func issuesAreNumberedOneByOneHoweverOftenTheyAreWritten() throws {
        let store = try IssueStore.open(at: scratchFolder() + "/store.sqlite")
        try store.write(StoreBatch(deltas: [delta("P-402", count: 1, at: start)]))
        for second in 1...20 {
            let at = start.addingTimeInterval(Double(second))
            try store.write(StoreBatch(deltas: [delta("P-402", count: 1, at: at)]))
        }
        try store.write(StoreBatch(deltas: [delta("N-503", count: 1, at: start.addingTimeInterval(30))]))
        let issues = try store.issues(changedAfter: 0).issues
        #expect(issues.first { $0.record.fingerprint == "P-402" }?.id == 1)
        #expect(issues.first { $0.record.fingerprint == "N-503" }?.id == 2, "an update takes no number")
        #expect(issues.first { $0.record.fingerprint == "P-402" }?.record.count == 21)
    }

    @Test func triageFromAnotherProcessIsStoredWithHistoryAndAdvancesTheSequence() throws {
        let path = scratchFolder() + "/store.sqlite"
        let store = try IssueStore.open(at: path)
        try store.write(StoreBatch(deltas: [delta("P-402", count: 5, at: start, version: "2.0.0")]))
        let id = try #require(try store.issues(changedAfter: 0).issues.first?.id)
        let before = try store.sequence()
        let cli = try IssueStore.open(at: path)
        let after = try cli.triage(id: id, .resolveInNextRelease, at: start.addingTimeInterval(10), actor: "cli")
        #expect(after.record.triage.status == .resolved)
        #expect(after.record.triage.inNextRelease)
        #expect(after.record.triage.resolvedThrough == "2.0.0")
        #expect(try store.sequence() == before + 1)
        let seen = try store.issues(changedAfter: before).issues
        #expect(seen.map(\.record.triage.status) == [.resolved])
        try cli.triage(id: id, .ignore(.occurrences(10)), at: start.addingTimeInterval(20), actor: "cli")
        try cli.triage(id: id, .reopen, at: start.addingTimeInterval(30), actor: "cli")
        let history = try store.issue(id: id).history
        #expect(history.map(\.action) == ["resolved in next release", "ignored until 10 more", "reopened"])
        #expect(history.map(\.actor) == ["cli", "cli", "cli"])
        #expect(throws: IssueStoreError.self) { try cli.triage(id: 999, .resolve, at: start, actor: "cli") }
    }

    @Test func twoWritersOnOneFileAddTheirCountsAndSeeEachOthersIssues() async throws {
        let path = scratchFolder() + "/store.sqlite"
        let a = try IssueStore.open(at: path)
        let b = try IssueStore.open(at: path)
        let start = self.start
        // Both write at once, each from its own task: SQLite's locks serialise them, nothing is lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (store, own) in [(a, "A-1"), (b, "B-1")] {
                group.addTask {
                    for round in 0..<50 {
                        let at = start.addingTimeInterval(Double(round))
                        try store.write(
                            StoreBatch(deltas: [delta("SHARED", count: 2, at: at), delta(own, count: 1, at: at)]))
                    }
                }
            }
            try await group.waitForAll()
        }
        for store in [a, b] {
            let issues = try store.issues(changedAfter: 0).issues
            #expect(Set(issues.map(\.record.fingerprint)) == ["SHARED", "A-1", "B-1"])
            #expect(issues.first { $0.record.fingerprint == "SHARED" }?.record.count == 200)
        }
        #expect(try a.sequence() == 100)
    }

    @Test func aCorruptFileIsMovedAsideAndAFreshStoreIsUsed() throws {
        let folder = scratchFolder()
        let path = folder + "/store.sqlite"
        try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))
        let store = try IssueStore.open(at: path, now: start)
        let notice = try #require(store.openingNotice)
        #expect(notice.contains("moved to \(path).unusable-20270115T080000Z"))
        #expect(FileManager.default.fileExists(atPath: path + ".unusable-20270115T080000Z"))
        // The garbage is kept as it was for whoever wants it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".unusable-20270115T080000Z")).count == 8_192)
        try store.write(StoreBatch(deltas: [delta("P-402", count: 1, at: start)]))
        #expect(try store.issues(changedAfter: 0).issues.count == 1)
    }

    @Test func anotherProgramsDatabaseIsMovedAside() throws {
        let path = scratchFolder() + "/store.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')") }
        }
        let store = try IssueStore.open(at: path, now: start)
        #expect(store.openingNotice?.contains("another program's file") == true)
        let kept = try DatabaseQueue(path: path + ".unusable-20270115T080000Z")
        #expect(try kept.read { try String.fetchOne($0, sql: "SELECT body FROM notes") } == "mine")
    }

    @Test func theFingerprintSchemeIsNamedAsMadeAndAV1StoreIsCorrectedInPlace() throws {
        let path = scratchFolder() + "/store.sqlite"
        func scheme(_ store: IssueStore) throws -> String? {
            try store.pool.read {
                try String.fetchOne($0, sql: "SELECT value FROM store_meta WHERE key = 'fingerprint_scheme'")
            }
        }
        do {
            let store = try IssueStore.open(at: path, now: start)
            #expect(try scheme(store) == IssueStore.fingerprintScheme)
            try store.write(StoreBatch(deltas: [delta("Err#P-402#row <num> changed", count: 3, at: start)]))
            // As the first release left it: only v1 applied, and its name for the scheme.
            try store.pool.write {
                try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('v2', 'v3')")
                try $0.execute(sql: "DROP TABLE issue_alias; DROP TABLE file_read")
                try $0.execute(sql: "UPDATE store_meta SET value = 'type-code/1' WHERE key = 'fingerprint_scheme'")
            }
        }
        let store = try IssueStore.open(at: path, now: start)
        #expect(store.openingNotice == nil)
        #expect(try scheme(store) == IssueStore.fingerprintScheme)
        // Nothing recomputed: the issue's key is not one its type and code made, so it keeps it and its count.
        let issues = try store.issues(changedAfter: 0).issues
        #expect(issues.map(\.record.fingerprint) == ["Err#P-402#row <num> changed"])
        #expect(issues.map(\.record.count) == [3])
    }

    /// A store keyed by the scheme before v3 (templates that left hex ids and short-prefixed numbers as words, no
    /// component): opening it re-keys each issue from its newest occurrence, merges the issues that now share a key
    /// (counts, hours and versions added, the earliest first seen, the latest words, occurrences and history moved),
    /// and keeps every old key findable.
    @Test func v3RegroupsIssuesThatNowShareAFingerprint() throws {
        let path = scratchFolder() + "/store.sqlite"
        let old = ["Shop.PaymentError#P-402#query q-12f76 timed out", "Shop.PaymentError#P-402#query q-9ab31 timed out"]
        do {
            let store = try IssueStore.open(at: path, now: start)
            var resolved = IssueTriage()
            resolved.apply(.resolve, count: 2, newestVersion: nil, at: start.addingTimeInterval(100))
            try store.write(
                StoreBatch(deltas: [
                    delta(old[0], count: 2, at: start, version: "1.0", message: "query q-12f76 timed out"),
                    delta(
                        old[1], count: 5, at: start.addingTimeInterval(50), version: "1.1",
                        message: "query q-9ab31 timed out", triage: (resolved, "resolved", "test")),
                    delta("Shop.PaymentError#P-402#card declined", count: 1, at: start),
                ]))
            // As v2 left it.
            try store.pool.write {
                try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3'")
                try $0.execute(sql: "DROP TABLE issue_alias; DROP TABLE file_read")
                try $0.execute(
                    sql: "UPDATE store_meta SET value = 'type-code-template/1' WHERE key = 'fingerprint_scheme'")
            }
        }
        let store = try IssueStore.open(at: path, now: start)
        let issues = try store.issues(changedAfter: 0).issues
        let merged = Fingerprint.make(
            typeName: "Shop.PaymentError", code: "P-402", source: nil, logMessage: nil,
            message: "query q-9ab31 timed out")
        #expect(Set(issues.map(\.record.fingerprint)) == [merged, "Shop.PaymentError#P-402##card declined"])
        let issue = try #require(issues.first { $0.record.fingerprint == merged })
        #expect(issue.record.count == 7)
        #expect(issue.record.firstSeen == start)
        #expect(issue.record.lastSeen == start.addingTimeInterval(50))
        #expect(Set(issue.record.versions.map(\.version)) == ["1.0", "1.1"])
        #expect(issue.record.triage.status == .resolved)
        let full = try store.issue(id: issue.id)
        #expect(full.occurrences.count == 2)
        #expect(full.history.map(\.action) == ["resolved"])
        // Both old keys still name it.
        for key in old { #expect(try store.occurrences(fingerprint: key).count == 2) }
    }

    @Test func aStoreFromANewerErrorwatchIsMovedAside() throws {
        let path = scratchFolder() + "/store.sqlite"
        do {
            let store = try IssueStore.open(at: path)
            try store.pool.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        }
        let store = try IssueStore.open(at: path, now: start)
        #expect(store.openingNotice?.contains("newer errorwatch") == true)
        #expect(try store.issues(changedAfter: 0).issues.isEmpty)
    }

    @Test func aReadOnlyPlaceIsReportedAsUnavailable() throws {
        // /proc is read-only even for root, unlike a folder with its write bits removed.
        let error = #expect(throws: IssueStoreError.self) {
            try IssueStore.open(at: "/proc/self/ew25-store/store.sqlite")
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.description.contains("/proc/self/ew25-store") == true)
    }

    @Test func pruningUnderTheCapDropsOldOccurrencesBeforeIssueSummaries() throws {
        let path = scratchFolder() + "/store.sqlite"
        let cap: Int64 = 256 * 1_024
        let store = try IssueStore.open(at: path, maxSize: cap)
        let long = String(repeating: "x", count: 2_000)
        var pruned = false
        for round in 0..<200 {
            let at = start.addingTimeInterval(Double(round) * 61)  // a new minute each round: every one is kept
            let outcome = try store.write(
                StoreBatch(deltas: (0..<4).map { delta("F-\($0)", count: 1, at: at, message: long + "\(round)") }))
            pruned = pruned || outcome.pruned
        }
        #expect(pruned)
        #expect(try store.dataSize() <= cap)
        let issues = try store.issues(changedAfter: 0).issues
        // Every summary survives, with its exact count; the newest occurrence of each survives too.
        #expect(issues.count == 4)
        #expect(issues.allSatisfy { $0.record.count == 200 })
        for issue in issues {
            let kept = try store.issue(id: issue.id, occurrences: 1_000).occurrences
            #expect(kept.first?.message.hasSuffix("199") == true)
            #expect(kept.count < 200)
        }
    }

    @Test func occurrencesKeepTheFirstOnePerMinuteAndTheLatest() throws {
        let path = scratchFolder() + "/store.sqlite"
        let store = try IssueStore.open(at: path)
        // 100 writes within one minute, then one in the next minute.
        for round in 0..<100 {
            try store.write(
                StoreBatch(deltas: [
                    delta("P-402", count: 1, at: start.addingTimeInterval(Double(round) * 0.5), message: "m\(round)")
                ]))
        }
        try store.write(
            StoreBatch(deltas: [delta("P-402", count: 1, at: start.addingTimeInterval(120), message: "later")]))
        let id = try #require(try store.issues(changedAfter: 0).issues.first?.id)
        let kept = try store.issue(id: id, occurrences: 1_000).occurrences
        // first (m0) + latest 20 + the next minute's first ("later", kept as that minute's sample).
        #expect(kept.count == 1 + IssueStore.latestKept + 1)
        #expect(kept.first?.message == "later")
        #expect(kept.last?.message == "m0")
        #expect(try store.issue(id: id).record.count == 101)
    }

    @Test func theDefaultPathFollowsXDGStateHome() {
        #expect(
            IssueStore.defaultPath(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
                == "/x/state/errorwatch/store.sqlite")
        #expect(
            IssueStore.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/errorwatch/store.sqlite")
        // A relative XDG_STATE_HOME is invalid by the spec and ignored.
        #expect(
            IssueStore.defaultPath(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/u"])
                == "/home/u/.local/state/errorwatch/store.sqlite")
    }
}
