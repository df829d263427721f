import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchIngest
import ErrorWatchStore
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchRuntime

/// Issue 32, items 1 and 2: files read together arrive as one timeline, and a file (or a recording) read again is
/// counted once. The follower runs on a manual clock: a round reads what the files hold, then sleeps, and the test
/// advances the clock for the next round, so nothing waits on time.
@Suite(.timeLimit(.minutes(3)))
struct FileReadingTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    static func folder(_ name: String = #function) -> String {
        let folder = "/tmp/ew32-files-tests/\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A text log line at `seconds` after ``t0``, in the shape Python's `logging` writes.
    static func line(_ seconds: Double, _ level: String, _ message: String) -> String {
        let date = t0.addingTimeInterval(seconds)
        let stamp = Format.timestamp(date).prefix(23).replacingOccurrences(of: ".", with: ",")
        return "\(stamp) \(level) shop.db: \(message)\n"
    }

    /// Events ingested, in order.
    final class Seen: Sendable {
        let events = Mutex<[WireEvent]>([])
        var count: Int { events.withLock { $0.count } }
    }

    /// Runs a follower of `paths` on a manual clock into `runtime` for `rounds` rounds, then stops it.
    static func follow(_ paths: [String], into runtime: DashboardRuntime, clock: ManualClock, rounds: Int = 2) async {
        let tailers = paths.map {
            FileTailer(
                path: $0, from: .beginning, now: { t0 },
                ledger: { device, inode in runtime.ingest.fileMarks(device: device, inode: inode) })
        }
        let follower = FileFollower(tailers: tailers, interval: .milliseconds(200))
        follower.start(into: runtime.ingest, clock: ErasedClock(clock))
        for round in 0..<rounds {
            await clock.waitForSleepers()
            if round < rounds - 1 { clock.advance(by: .milliseconds(200)) }
        }
        await follower.stop()
    }

    @Test func filesReadTogetherAreMergedByTime() async throws {
        let folder = Self.folder()
        // Two files, each larger than a poll reads (1 MiB), whose lines alternate in time.
        var a = ""
        var b = ""
        for index in 0..<14_000 {
            a += Self.line(Double(index) * 2, "INFO", "order \(index) accepted by the first worker of many")
            b += Self.line(Double(index) * 2 + 1, "INFO", "order \(index) accepted by the second worker of many")
        }
        try a.write(toFile: folder + "/a.log", atomically: true, encoding: .utf8)
        try b.write(toFile: folder + "/b.log", atomically: true, encoding: .utf8)
        #expect(a.utf8.count > FileTailer.maximumBytesPerPoll && b.utf8.count > FileTailer.maximumBytesPerPoll)
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let seen = Seen()
        runtime.ingest.observe { event in seen.events.withLock { $0.append(event) } }
        await Self.follow([folder + "/a.log", folder + "/b.log"], into: runtime, clock: clock, rounds: 3)
        let times = seen.events.withLock { $0.map(\.time) }
        #expect(times.count == 28_000)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "the two files arrive as one timeline")
    }

    @Test func aFileReadAgainIsCountedOnceAndWhatIsNewIsCounted() async throws {
        let folder = Self.folder()
        let path = folder + "/app.log"
        let store = try IssueStore.open(at: folder + "/store.sqlite")
        var text = ""
        for index in 0..<40 {
            text += Self.line(Double(index), index % 2 == 0 ? "ERROR" : "INFO", "query q-\(index)f7e timed out")
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        func run() async throws -> Int {
            let clock = ManualClock()
            let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
            try runtime.useStore(store)
            await Self.follow([path], into: runtime, clock: clock)
            runtime.flushStore()
            return try store.issues(changedAfter: 0).issues.reduce(0) { $0 + $1.record.count }
        }
        #expect(try await run() == 20)
        // Opened again, as one does with a log viewer or after a restart: the same 20.
        #expect(try await run() == 20)
        #expect(try await run() == 20)
        // Lines appended since are counted, once.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(Self.line(100, "ERROR", "query q-77e1 timed out").utf8))
        try handle.close()
        #expect(try await run() == 21)
        #expect(try await run() == 21)
        // One issue: the hex ids are masked.
        #expect(try store.issues(changedAfter: 0).issues.count == 1)
    }

    @Test func aRotatedOrRewrittenFileIsANewFile() async throws {
        let folder = Self.folder()
        let path = folder + "/app.log"
        let store = try IssueStore.open(at: folder + "/store.sqlite")
        func run() async throws -> Int {
            let clock = ManualClock()
            let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
            try runtime.useStore(store)
            await Self.follow([path], into: runtime, clock: clock)
            runtime.flushStore()
            return try store.issues(changedAfter: 0).issues.reduce(0) { $0 + $1.record.count }
        }
        try (Self.line(0, "ERROR", "disk full") + Self.line(1, "ERROR", "disk full")).write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(try await run() == 2)
        // Rotated: the path now names another file (another inode), with lines of its own.
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        try (Self.line(10, "ERROR", "disk full")).write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try await run() == 3)
        // Truncated and written again in place (the same inode, other first bytes): a new file too.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((Self.line(20, "ERROR", "disk full") + Self.line(21, "ERROR", "disk full")).utf8))
        try handle.close()
        #expect(try await run() == 5)
        #expect(try await run() == 5)
    }

    @Test func aRecordingReplayedIntoAStoreIsCountedOnce() async throws {
        let folder = Self.folder()
        let store = try IssueStore.open(at: folder + "/store.sqlite")
        let encoder = WireEncoder()
        var bytes: [UInt8] = []
        // Out of time order in the file, as producers' clocks interleave in a recording.
        for index in [3, 1, 2, 0, 5, 4, 7, 6] {
            bytes += try encoder.encode(
                WireEvent(
                    kind: .error, time: Self.t0.addingTimeInterval(Double(index) / 1_000), serviceName: "shop",
                    exceptionType: "Shop.Timeout", exceptionMessage: "POST /pay timed out"))
        }
        let path = folder + "/session.ndjson"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        func replay() async throws -> Int {
            let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: Self.t0)
            try runtime.useStore(store)
            let player = try RecordingPlayer(path: path, speed: 10_000, maximumGap: nil, reorderCapacity: 4)
            // Its events are a millisecond apart, played ten thousand times as fast: on the real clock.
            await player.play(into: runtime.ingest, clock: ErasedClock(ContinuousClock()))
            runtime.flushStore()
            return try store.issues(changedAfter: 0).issues.reduce(0) { $0 + $1.record.count }
        }
        #expect(try await replay() == 8)
        #expect(try await replay() == 8)
    }

    /// A replay stopped midway has played some events out of file order: they are remembered beside the lowest
    /// position not played, so the next replay counts exactly the rest.
    @Test func positionsPlayedOutOfOrderAreRemembered() {
        let identity = FileIdentity(device: 1, inode: 2, prefixLength: 10, prefixChecksum: 3)
        var played = PlayedPositions(mark: nil)
        for position: Int64 in [1, 0, 3, 5] { played.played(position) }
        let mark = played.mark(identity: identity, path: "r")!
        #expect(mark.offset == 2 && mark.beyond == [3, 5])
        #expect(played.mark(identity: identity, path: "r") == nil, "nothing new, nothing to record")
        var next = PlayedPositions(mark: mark)
        #expect([0, 1, 3, 5].allSatisfy { next.counts($0) })
        #expect(![2, 4, 6].contains { next.counts($0) })
        for position: Int64 in [2, 4] { next.played(position) }
        let after = next.mark(identity: identity, path: "r")!
        #expect(after.offset == 6 && after.beyond.isEmpty)
    }
}
