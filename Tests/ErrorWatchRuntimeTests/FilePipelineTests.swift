import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchRuntime

/// Issue 35: a file's next piece is read while the last one's events are handed on; every line still arrives, in
/// order, and reading runs at most about two pieces ahead of what was handed on.
@Suite(.timeLimit(.minutes(3)))
struct FilePipelineTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// What the observer saw: the events' times, and how far the file was read ahead of them at worst.
    final class Progress: Sendable {
        let times = Mutex<[Date]>([])
        let mostAhead = Atomic<Int>(0)
    }

    @Test func shortLinesAreHandedOnWholeInOrderAndReadAtMostTwoPiecesAhead() async throws {
        let folder = "/tmp/ew35-pipeline-tests/\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/app.log"
        // Lines of one length, so the bytes handed on are the count times it; more events to a piece than the
        // look-ahead, and five pieces.
        let count = 80_000
        var text = ""
        for index in 0..<count {
            let (minute, second, milli) = (index / 60_000, index / 1_000 % 60, index % 1_000)
            let stamp = "2026-11-23T10:" + Self.pad(minute, 2) + ":" + Self.pad(second, 2) + "." + Self.pad(milli, 3)
            text += stamp + "Z " + (index % 3 == 0 ? "ERROR" : "INFO ") + " order " + Self.pad(index, 6) + " read\n"
        }
        let lineBytes = text.utf8.count / count
        #expect(lineBytes * count == text.utf8.count)
        #expect(FileTailer.maximumBytesPerPoll / lineBytes > FileFollower.lookahead)
        try text.write(toFile: path, atomically: true, encoding: .utf8)

        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let tailer = FileTailer(path: path, from: .beginning, now: { Self.t0 })
        let progress = Progress()
        runtime.ingest.observe { event in
            let handed = progress.times.withLock { times in
                times.append(event.time)
                return times.count
            }
            let ahead = Int(tailer.bytesRead) - handed * lineBytes
            progress.mostAhead.max(ahead, ordering: .relaxed)
        }
        let follower = FileFollower(tailers: [tailer], interval: .milliseconds(200))
        follower.start(into: runtime.ingest, clock: ErasedClock(clock))
        // Read to the end; the last line is handed on at the poll after the next interval.
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(200))
        await clock.waitForSleepers()
        await follower.stop()

        let times = progress.times.withLock { $0 }
        #expect(times.count == count)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "the lines arrive in the file's order")
        // A piece stops at the first 64 KiB read that reaches it.
        let piece = FileTailer.maximumBytesPerPoll + 64 * 1024
        #expect(progress.mostAhead.load(ordering: .relaxed) <= 2 * piece)
        #expect(runtime.ingest.statuses.first?.events == UInt64(count))
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
