import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchRuntime

/// Issue 34, items 4 and 6: descriptors are a budget (files beyond it wait their turn and are all read), and a FILE
/// that cannot be read is refused alone while the others are read. The follower runs on a manual clock: each test
/// waits for it to sleep (it read all it could) rather than for time to pass.
@Suite(.timeLimit(.minutes(3)))
struct FileBudgetTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// `count` text lines at times from `start` seconds after ``t0``, one a second.
    static func lines(_ count: Int, from start: Int, file: Int) -> String {
        (0..<count).map { index in
            let stamp = Format.timestamp(t0.addingTimeInterval(Double(start + index))).prefix(23)
                .replacingOccurrences(of: ".", with: ",")
            return "\(stamp) ERROR shop.db: file \(file) line \(index) failed\n"
        }.joined()
    }

    static func folder(_ name: String = #function) -> String {
        let folder = "/tmp/ew34-budget-tests/\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What the follower did, seen from the events it handed on.
    final class Watch: Sendable {
        struct Seen {
            var events = 0
            var mostOpen = 0
            var waitingAtFirstEvent: Int?
        }
        let seen = Mutex(Seen())
    }

    @Test func filesBeyondTheBudgetWaitTheirTurnAndAreAllRead() async throws {
        let folder = Self.folder()
        let paths = (0..<10).map { folder + "/app-\($0).log" }
        for (file, path) in paths.enumerated() {
            try Self.lines(50, from: file * 100, file: file).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let tailers = paths.map { FileTailer(path: $0, from: .beginning, now: { Self.t0 }) }
        let watch = Watch()
        let ingest = runtime.ingest
        // Handed on from the follower's own task, between its polls: how many files are open right then.
        runtime.ingest.observe { _ in
            let open = tailers.filter(\.holdsDescriptor).count
            let first = watch.seen.withLock { $0.events == 0 }
            let waiting = first ? ingest.statuses.filter(\.waitsForTurn).count : nil
            watch.seen.withLock { seen in
                seen.events += 1
                seen.mostOpen = max(seen.mostOpen, open)
                if let waiting { seen.waitingAtFirstEvent = waiting }
            }
        }
        let follower = FileFollower(tailers: tailers, interval: .milliseconds(200), descriptorBudget: 4)
        follower.start(into: runtime.ingest, clock: ErasedClock(clock))
        // The first sleep comes once every file was read to its end (each polled once more to hand on the last
        // line, held in case a trace follows, before it gave its descriptor back).
        await clock.waitForSleepers()
        let seen = watch.seen.withLock { $0 }
        #expect(seen.events == 500, "all ten files read to their end")
        #expect(seen.mostOpen <= 4, "never more than the budget open")
        #expect(seen.mostOpen >= 1)
        #expect(seen.waitingAtFirstEvent == 6, "the six beyond the budget said they wait")
        let rows = runtime.ingest.statuses.filter { $0.kind == .file }
        #expect(rows.count == 10)
        #expect(rows.allSatisfy { $0.events == 50 && !$0.waitsForTurn && $0.health == .ok })
        #expect(tailers.filter(\.holdsDescriptor).count <= 4)

        // Lines appended later to a file that gave its descriptor back are read at one of its next turns.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: paths[0]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(Self.lines(1, from: 5_000, file: 0).utf8))
        try handle.close()
        for _ in 0..<3 {
            clock.advance(by: .milliseconds(200))
            await clock.waitForSleepers()
        }
        #expect(watch.seen.withLock { $0.events } == 501)
        #expect(watch.seen.withLock { $0.mostOpen } <= 4)
        await follower.stop()
    }

    @Test func theBudgetFollowsTheDescriptorLimit() {
        #expect(FileFollower.descriptorBudget(limit: 1_024) == 512)
        #expect(FileFollower.descriptorBudget(limit: 300) == 44)
        #expect(FileFollower.descriptorBudget(limit: 100) == 4)
        #expect(FileFollower.descriptorBudget(limit: 65_536) == 32_768)
    }

    @Test func anUnreadableFileIsRefusedAloneAndTheOthersAreRead() async throws {
        let folder = Self.folder()
        let good = folder + "/good.log"
        try Self.lines(20, from: 0, file: 0).write(toFile: good, atomically: true, encoding: .utf8)
        let directory = folder + "/logs"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let missing = folder + "/later.log"
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let external = ExternalSources(
            listen: [], tail: ["/dev/urandom"], open: [directory, "/dev/zero", good, missing],
            ingest: runtime.ingest, clock: ErasedClock(clock), fileDescriptorBudget: 8)
        #expect(
            external.refused.map(\.description) == [
                "cannot follow /dev/urandom: it is a device", "cannot read \(directory): it is a directory",
                "cannot read /dev/zero: it is a device",
            ])
        try await external.start()
        // The good file's last line is held (a trace may follow) until a poll finds nothing new: the next interval.
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(200))
        await clock.waitForSleepers()
        let rows = Dictionary(runtime.ingest.statuses.map { ($0.detail, $0) }, uniquingKeysWith: { $1 })
        for path in ["/dev/urandom", directory, "/dev/zero"] {
            let row = try #require(rows[path], "\(path) has its row")
            #expect(row.state == "refused" && row.health == .failing)
            #expect(row.lastProblem?.hasPrefix("it is a") == true)
        }
        #expect(rows[good]?.events == 20, "the good file is read")
        #expect(rows[good]?.health == .ok)
        #expect(rows[missing]?.state == "following", "a missing file is waited for, not refused")
        await external.shutdown()
    }
}
