import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchStore
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import GRDB
import Testing

@testable import ErrorWatchRuntime

/// The dashboard's runtime with a store: what it counts reaches the file, a restart continues from it, triage from
/// keys and from other processes meets in both, regressions are detected as errors arrive. Writes are driven by
/// `flushStore()` (what the writer's task does every 100 ms), so nothing waits on time.
struct StoreRuntimeTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func folder(_ name: String = #function) -> String {
        let folder = "/tmp/ew25-runtime-tests/\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func remote(version: String?, environment: String? = "prod", at offset: TimeInterval = 0) -> RemoteError {
        RemoteError(
            WireEvent(
                kind: .error, time: t0.addingTimeInterval(offset), serviceName: "checkout", pid: 42,
                hostName: "web-1", source: "pay", exceptionType: "Shop.PaymentError",
                exceptionMessage: "gateway answered 503", code: ErrorCode("N", 503), category: .transient,
                severity: .error, origin: .user, exceptionStacktrace: "at pay()\nat main()", traceID: "ab12",
                serviceVersion: version, deploymentEnvironment: environment))!
    }

    func runtime(_ store: IssueStore) throws -> DashboardRuntime {
        let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: t0)
        try runtime.useStore(store)
        return runtime
    }

    /// A store that refuses writes pauses (the header says why), is tried again after the backoff on the runtime's
    /// clock, not before, and records again once it accepts; the header clears.
    @Test func aStoreThatRefusesWritesPausesAndIsTriedAgainOnTheClock() throws {
        let path = Self.folder() + "/store.sqlite"
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: t0)
        let store = try IssueStore.open(at: path)
        try runtime.useStore(store)
        _ = runtime.inbox.drain()
        func notes() -> [String?] {
            runtime.inbox.drain().compactMap { if case .storeStatusChanged(let note) = $0 { note } else { nil } }
        }
        let saboteur = try DatabaseQueue(path: path)
        try saboteur.write {
            try $0.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON issue BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        runtime.stream.add(remote: remote(version: "1.0.0"))
        runtime.flushStore()
        let paused = notes()
        #expect(paused.count == 1)
        #expect(paused.first??.hasPrefix("store paused: ") == true)
        #expect(paused.first??.contains("refused") == true)
        try saboteur.write { try $0.execute(sql: "DROP TRIGGER refuse") }
        // Before the first delay (1 s) has passed, nothing is tried: what is counted meanwhile is not recorded.
        clock.advance(by: .milliseconds(999))
        runtime.stream.add(remote: remote(version: "1.0.0"))
        runtime.flushStore()
        #expect(try store.issues(changedAfter: 0).issues.isEmpty)
        #expect(notes().isEmpty)
        // Once it has, the next write goes through and the header clears.
        clock.advance(by: .milliseconds(1))
        runtime.stream.add(remote: remote(version: "1.1.0"))
        runtime.flushStore()
        #expect(try store.issues(changedAfter: 0).issues.first?.record.count == 1)
        #expect(notes() == [nil])
    }

    @Test func aRestartContinuesCountsAndShowsTheIssuesAtOnce() throws {
        let path = Self.folder() + "/store.sqlite"
        do {
            let first = try runtime(IssueStore.open(at: path))
            for _ in 0..<5 { first.stream.add(remote: remote(version: "1.0.0")) }
            first.flushStore()
        }
        let store = try IssueStore.open(at: path)
        let second = try runtime(store)
        // The first sample after loading lists the stored issue with its count, versions and store id.
        let sampled = second.feeds.issues.sample(at: t0).changed
        let issue = try #require(sampled.first)
        #expect(sampled.count == 1)
        #expect(issue.count == 5)
        #expect(issue.versions.map(\.version) == ["1.0.0"])
        #expect(issue.environments == ["prod"])
        #expect(issue.storeID != nil)
        for _ in 0..<2 { second.stream.add(remote: remote(version: "1.1.0")) }
        second.flushStore()
        let stored = try #require(try store.issues(changedAfter: 0).issues.first)
        #expect(stored.record.count == 7)
        #expect(stored.record.versions.map(\.count) == [5, 2])
        // The occurrence is kept as its producer sent it.
        let latest = try #require(try store.issue(id: stored.id).occurrences.first)
        #expect(latest.version == "1.1.0")
        #expect(latest.traceID == "ab12")
        #expect(latest.stack == "at pay()\nat main()")
        #expect(latest.host == "web-1")
        #expect(second.feeds.issues.sample(at: t0).changed.first?.count == 7)
    }

    @Test func aLogLinesOwnSentenceIsStoredAndLeadsTheRowAfterARestart() throws {
        let path = Self.folder() + "/store.sqlite"
        var wire = WireEvent(
            kind: .error, time: t0, serviceName: "payments-gateway", exceptionType: "GatewayTimeout",
            exceptionMessage: "upstream timed out after 3000 ms")
        wire.body = "payment failed"
        let error = try #require(RemoteError(wire))
        #expect(error.logMessage == "payment failed")
        let store = try IssueStore.open(at: path)
        do {
            let first = try runtime(store)
            first.stream.add(remote: error)
            first.flushStore()
        }
        let stored = try #require(try store.issues(changedAfter: 0).issues.first)
        #expect(stored.title == "GatewayTimeout: payment failed — upstream timed out after 3000 ms")
        let latest = try #require(try store.issue(id: stored.id).occurrences.first)
        #expect(latest.logMessage == "payment failed")
        #expect(latest.message == "upstream timed out after 3000 ms")
        // Loaded by a new process, before the issue occurs again: the row's words are the stored ones.
        let second = try runtime(IssueStore.open(at: path))
        let loaded = try #require(second.feeds.issues.sample(at: t0).changed.first)
        #expect(loaded.recent.isEmpty)
        #expect(loaded.latestWords == "payment failed — upstream timed out after 3000 ms")
    }

    @Test func aRenderShowsTheStoresIssuesAndNeverWritesToIt() throws {
        let path = Self.folder() + "/store.sqlite"
        do {
            let first = try runtime(IssueStore.open(at: path))
            for _ in 0..<3 { first.stream.add(remote: remote(version: "1.0.0")) }
            first.flushStore()
        }
        let store = try IssueStore.open(at: path)
        let before = try store.sequence()
        var options = HeadlessRenderer.Options(
            width: 120, height: 40, keys: [.character("v")],
            duration: .seconds(3), startDate: t0.addingTimeInterval(60))
        options.store = store
        let outcome = HeadlessRenderer(options: options).run()
        let text = outcome.screen.textLines().joined(separator: "\n")
        #expect(text.contains("PaymentError"), "\(text)")
        #expect(outcome.state.errors.issues.contains { $0.typeName.hasSuffix("PaymentError") && $0.count == 3 })
        #expect(try store.sequence() == before)
        #expect(try store.issues(changedAfter: 0).issues.map(\.record.count) == [3])
    }

    @Test func aKeyResolvesAndTheNextOccurrenceRegressesWithAnAlert() throws {
        let path = Self.folder() + "/store.sqlite"
        let store = try IssueStore.open(at: path)
        let runtime = try runtime(store)
        runtime.stream.add(remote: remote(version: "2.0.0"))
        runtime.flushStore()
        let fingerprint = try #require(runtime.feeds.issues.sample(at: t0).changed.first?.fingerprint)
        runtime.perform(.triage(fingerprint: fingerprint, .resolve))
        runtime.flushStore()
        #expect(try store.issues(changedAfter: 0).issues.first?.record.triage.status == .resolved)
        runtime.stream.add(remote: remote(version: "2.0.1", at: 60))
        let regressions = runtime.feeds.issues.takeRegressions()
        #expect(regressions.map(\.1) == ["2.0.1"])
        #expect(
            runtime.feeds.regressionAlert(regressions[0].0, regressions[0].1).title
                == "Regressed: PaymentError is back in 2.0.1")
        runtime.flushStore()
        let stored = try #require(try store.issues(changedAfter: 0).issues.first)
        #expect(stored.record.triage.status == .regressed)
        #expect(try store.issue(id: stored.id).history.map(\.action) == ["resolved", "regressed in 2.0.1"])
    }

    @Test func resolvedInNextReleaseIgnoresOldVersionsAndRegressesOnANewerOne() throws {
        let store = try IssueStore.open(at: Self.folder() + "/store.sqlite")
        let runtime = try runtime(store)
        runtime.stream.add(remote: remote(version: "1.9.9"))
        let fingerprint = try #require(runtime.feeds.issues.sample(at: t0).changed.first?.fingerprint)
        runtime.perform(.triage(fingerprint: fingerprint, .resolveInNextRelease))
        runtime.stream.add(remote: remote(version: "1.9.9", at: 1))
        runtime.stream.add(remote: remote(version: nil, at: 2))
        #expect(runtime.feeds.issues.takeRegressions().isEmpty)
        runtime.stream.add(remote: remote(version: "1.10.0", at: 3))
        #expect(runtime.feeds.issues.takeRegressions().map(\.1) == ["1.10.0"])
    }

    @Test func aTriageFromAnotherProcessReachesTheTrackerAtTheNextWrite() throws {
        let path = Self.folder() + "/store.sqlite"
        let runtime = try runtime(IssueStore.open(at: path))
        runtime.stream.add(remote: remote(version: nil))
        runtime.flushStore()
        _ = runtime.feeds.issues.sample(at: t0)
        let cli = try IssueStore.open(at: path)
        let id = try #require(try cli.issues(changedAfter: 0).issues.first?.id)
        try cli.triage(id: id, .ignore(.occurrences(3)), at: t0, actor: "cli")
        runtime.flushStore()
        let seen = try #require(runtime.feeds.issues.sample(at: t0).changed.first)
        #expect(seen.triage.status == .ignored)
        #expect(seen.triage.ignoredUntilCount == 4)
        // Counting goes on here, and the ignore ends at its count.
        for offset in 1...3 { runtime.stream.add(remote: remote(version: nil, at: Double(offset))) }
        #expect(runtime.feeds.issues.sample(at: t0).changed.first?.triage.status == .unresolved)
    }

    @Test func twoDashboardsOnOneStoreSeeEachOthersIssues() throws {
        let path = Self.folder() + "/store.sqlite"
        let a = try runtime(IssueStore.open(at: path))
        let b = try runtime(IssueStore.open(at: path))
        a.stream.add(remote: remote(version: "1.0.0"))
        a.flushStore()
        b.stream.add(ErrorWatchRuntimeTestsLocalError())
        b.stream.add(remote: remote(version: "1.0.0"))
        b.flushStore()
        a.flushStore()
        let seenByA = a.feeds.issues.sample(at: t0).changed
        #expect(seenByA.count == 2)
        #expect(seenByA.first { $0.typeName == "PaymentError" }?.count == 2)
    }
}

struct ErrorWatchRuntimeTestsLocalError: ClassifiedError {
    var typeName: String { "LocalError" }
    var code: ErrorCode { ErrorCode("L", 1) }
    var category: ErrorCategory { .bug }
    var userMessage: String { "failed" }
    var technicalMessage: String { "local failure" }
}

extension ErrorStream {
    /// Adds a remote error as the dashboard's ingest does: with the error in its context, where consumers read it.
    func add(remote error: RemoteError) {
        add(error, context: ErrorContext(source: "pay", remote: error))
    }
}
