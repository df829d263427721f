import ErrorStreaming
import ErrorStreamingTesting
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

struct FileTailerTests {
    func append(_ path: String, _ bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    @Test func followsAppendsAndWaitsForUnfinishedLines() throws {
        let path = try temporaryDirectory() + "/app.ndjson"
        let tailer = FileTailer(path: path, format: .wire)
        #expect(try tailer.poll() == FileTailer.Batch())  // no file yet
        try create(atPath: path, contents: Data(goodLine(sequence: 1) + goodLine(sequence: 2)))
        #expect(try tailer.poll().events.map(\.sequence) == [1, 2])
        let third = goodLine(sequence: 3)
        try append(path, Array(third.prefix(10)))
        #expect(try tailer.poll().events.isEmpty)
        try append(path, Array(third.dropFirst(10)) + Array("garbage\n".utf8))
        let batch = try tailer.poll()
        #expect(batch.events.map(\.sequence) == [3])
        #expect(batch.badLines.count == 1)
        #expect(tailer.statistics == .init(events: 3, badLines: 1, truncations: 0, rotations: 0))
    }

    @Test func plainTextIsReadAndAHeldLineIsHandedOnWhenTheFileIsQuiet() throws {
        let path = try temporaryDirectory() + "/app.log"
        let received = Date(timeIntervalSince1970: 1_795_000_000)
        let tailer = FileTailer(path: path, now: { received })
        try create(atPath: path, contents: Data("INFO started\nERROR boom\n".utf8))
        let first = try tailer.poll()
        #expect(first.events.map(\.body) == ["started"])  // `ERROR boom` is held: a trace may follow
        #expect(first.events.first?.time == received)
        try append(path, Array("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n".utf8))
        let second = try tailer.poll()
        #expect(second.events.map(\.exceptionMessage) == ["boom"])
        let quiet = try tailer.poll()
        #expect(quiet.events.map(\.exceptionType) == ["panic"])
        #expect(quiet.events.first?.exceptionStacktrace?.contains("goroutine 1 [running]:") == true)
        #expect(tailer.statistics.badLines == 0)
    }

    @Test func aBigAppendIsReadInBoundedPolls() throws {
        let path = try temporaryDirectory() + "/big.ndjson"
        let tailer = FileTailer(path: path)
        let line = goodLine(sequence: 1)
        let count = FileTailer.maximumBytesPerPoll / line.count * 3
        try create(atPath: path, contents: Data((0..<count).flatMap { _ in line }))
        var polls = 0
        var events = 0
        var batch: FileTailer.Batch
        repeat {
            batch = try tailer.poll()
            polls += 1
            events += batch.events.count
            #expect(batch.events.count * line.count <= FileTailer.maximumBytesPerPoll + 64 * 1024)
        } while batch.more
        #expect(events == count)
        #expect(polls >= 3)
    }

    @Test func startingAtTheEndSkipsWhatIsAlreadyThere() throws {
        let path = try temporaryDirectory() + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1)))
        let tailer = FileTailer(path: path, from: .end)
        #expect(try tailer.poll().events.isEmpty)
        try append(path, goodLine(sequence: 2))
        #expect(try tailer.poll().events.map(\.sequence) == [2])
    }

    @Test func truncationStartsOverAtTheBeginning() throws {
        let path = try temporaryDirectory() + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1) + goodLine(sequence: 2)))
        let tailer = FileTailer(path: path)
        #expect(try tailer.poll().events.count == 2)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.close()
        try append(path, goodLine(sequence: 9))
        let batch = try tailer.poll()
        #expect(batch.truncated)
        #expect(batch.events.map(\.sequence) == [9])
        #expect(tailer.statistics.truncations == 1)
    }

    @Test func rotationReadsTheOldFileToItsEndThenTheNewOne() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1)))
        let tailer = FileTailer(path: path)
        #expect(try tailer.poll().events.count == 1)
        try append(path, goodLine(sequence: 2))  // written just before the rotation
        try FileManager.default.moveItem(atPath: path, toPath: directory + "/app.ndjson.1")
        #expect(try tailer.poll().events.map(\.sequence) == [2])  // the path is missing for a moment
        try create(atPath: path, contents: Data(goodLine(sequence: 3) + goodLine(sequence: 4)))
        let batch = try tailer.poll()
        #expect(batch.rotated)
        #expect(batch.events.map(\.sequence) == [3, 4])
        try append(path, goodLine(sequence: 5))
        #expect(try tailer.poll().events.map(\.sequence) == [5])
        #expect(tailer.statistics.rotations == 1 && tailer.statistics.events == 5)
    }

    @Test func runPollsOnTheInjectedClock() async throws {
        let path = try temporaryDirectory() + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1)))
        let tailer = FileTailer(path: path)
        let clock = ManualClock()
        let (batches, continuation) = AsyncStream.makeStream(of: FileTailer.Batch.self)
        let task = Task { try await tailer.run(every: .seconds(1), clock: clock) { continuation.yield($0) } }
        var iterator = batches.makeAsyncIterator()
        #expect(await iterator.next()?.events.map(\.sequence) == [1])
        try append(path, goodLine(sequence: 2))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await iterator.next()?.events.map(\.sequence) == [2])
        task.cancel()
    }
}

struct RecordingTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func event(at seconds: Double, _ sequence: UInt64) -> WireEvent {
        WireEvent(
            kind: .error, time: Self.start.addingTimeInterval(seconds), serviceName: "shop", exceptionType: "E",
            sequence: sequence)
    }

    @Test func recorderOutputReadsBackWithOffsets() throws {
        let path = try temporaryDirectory() + "/session.ndjson"
        let recorder = try RecordingWriter(path: path, bufferCapacity: 100)
        let events = [event(at: 0, 1), event(at: 1.5, 2), event(at: 4, 3)]
        for event in events { try recorder.append(event) }
        try recorder.close()
        #expect(recorder.recordedCount == 3)
        let info = try FileManager.default.attributesOfItem(atPath: path)
        #expect((info[.posixPermissions] as? Int) == 0o600)
        let recording = try RecordingReader(path: path).readAll()
        #expect(recording.events == events)
        #expect(recording.entries.map(\.offset) == [.zero, .milliseconds(1500), .seconds(4)])
        #expect(recording.badLines.isEmpty)
        let again = try RecordingWriter(path: path)
        try again.append(event(at: 5, 4))
        try again.flush()
        #expect(try RecordingReader(path: path).readAll().events.count == 4)
    }

    @Test func unterminatedLastLineAndBadLinesAreReported() throws {
        let path = try temporaryDirectory() + "/crashed.ndjson"
        let good = try WireEncoder().encode(event(at: 0, 1))
        let bytes = Array("nope\n".utf8) + good + Array(good.dropLast())
        try create(atPath: path, contents: Data(bytes))
        let recording = try RecordingReader(path: path).readAll()
        #expect(recording.events.count == 2)
        #expect(recording.badLines.count == 1)
    }
}

struct FileTailerProblemTests {
    /// A file that can no longer be read is reported as one sentence with its path and the system's reason; the
    /// runtime retries with backoff and shows it (a directory stands in for a permission taken away, which root,
    /// who runs CI, would bypass).
    @Test func aPathThatCannotBeReadIsReportedInOneSentence() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/app.log"
        let tailer = FileTailer(path: path)
        try create(atPath: path, contents: Data("INFO one\n".utf8))
        _ = try tailer.poll()
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let problem = FileProblem(path: path, doing: "follow", reason: "it is a directory")
        #expect(throws: problem) { try tailer.poll() }
        #expect("\(problem)" == "cannot follow \(path): it is a directory")
    }

    /// A followed path replaced by a link to a device is refused, not read forever (`/dev/zero` never ends), and
    /// each poll costs one open; a named pipe put there is refused without blocking the poll.
    @Test func aDeviceOrAPipePutAtTheFollowedPathIsRefused() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/app.log"
        let tailer = FileTailer(path: path)
        try create(atPath: path, contents: Data("INFO one\n".utf8))
        #expect(try tailer.poll().events.count == 1)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        let device = FileProblem(path: path, doing: "follow", reason: "it is a device")
        for _ in 0..<3 { #expect(throws: device) { try tailer.poll() } }

        let other = directory + "/fifo.log"
        #expect(mkfifo(other, 0o600) == 0)
        let pipe = FileTailer(path: other)
        #expect(throws: FileProblem(path: other, doing: "follow", reason: "it is a named pipe, not a regular file")) {
            try pipe.poll()
        }
    }
}

/// Issue 34 item 3 and issue 32 item 2: a `.gz` file is inflated a bounded piece per poll, as its lines are read;
/// and a file met again by its identity is read from its start with its counted part said so.
struct FilePacingTests {
    @Test func aGzFileIsInflatedOnePieceAPoll() throws {
        let path = try temporaryDirectory() + "/app.ndjson.gz"
        var plain: [UInt8] = []
        for sequence in 1...40_000 { plain += goodLine(sequence: UInt64(sequence)) }
        #expect(plain.count > 6 * FileTailer.maximumBytesPerPoll)
        try Data(gzip(plain)).write(to: URL(fileURLWithPath: path))
        let tailer = FileTailer(path: path, format: .wire)
        var polls = 0
        var sequences: [UInt64] = []
        while true {
            let batch = try tailer.poll()
            polls += 1
            // A poll frames at most its share of inflated bytes: its events' lines fit in it.
            #expect(batch.events.count * (goodLine(sequence: 1).count - 8) <= FileTailer.maximumBytesPerPoll + 65_536)
            sequences += batch.events.compactMap(\.sequence)
            if !batch.more { break }
        }
        #expect(sequences == Array(1...40_000))
        #expect(polls >= 6)
    }

    @Test func aBombCostsOnePieceAPoll() throws {
        // 64 MiB of one byte, a few KiB compressed: one overlong line, read a piece at a time.
        let path = try temporaryDirectory() + "/bomb.log.gz"
        try Data(gzip([UInt8](repeating: 0x41, count: 64 * 1_024 * 1_024))).write(to: URL(fileURLWithPath: path))
        let tailer = FileTailer(path: path)
        let first = try tailer.poll()
        #expect(first.more, "the first poll stops at its piece")
        #expect(first.events.isEmpty)
        var polls = 1
        while try tailer.poll().more { polls += 1 }
        #expect(polls >= 64)
        #expect(tailer.statistics.badLines == 1, "one overlong line, counted once")
    }

    @Test func aFileMetAgainSaysWhatWasCountedBefore() throws {
        let path = try temporaryDirectory() + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1) + goodLine(sequence: 2)))
        let first = FileTailer(path: path, format: .wire)
        let batch = try first.poll()
        #expect(batch.countedBefore == 0)
        let mark = try #require(batch.mark)
        #expect(mark.offset == Int64(goodLine(sequence: 1).count * 2))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(goodLine(sequence: 3)))
        try handle.close()
        let again = FileTailer(path: path, format: .wire, ledger: { device, inode in
            device == mark.identity.device && inode == mark.identity.inode ? [mark] : []
        })
        var events: [UInt64] = []
        var counted = 0
        while true {
            let next = try again.poll()
            events += next.events.compactMap(\.sequence)
            counted += next.countedBefore
            if next.isEmpty { break }
        }
        #expect(events == [1, 2, 3])
        #expect(counted == 2)
        #expect(again.identity == mark.identity)
    }
}

/// Issue 34, item 4: a tailer gives its descriptor back between turns and keeps its place, so a follower can read
/// more files than it may hold open.
struct FileTurnTests {
    func append(_ path: String, _ bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    @Test func aReleasedTailerReadsOnWhereItStopped() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/app.ndjson"
        try create(atPath: path, contents: Data(goodLine(sequence: 1) + goodLine(sequence: 2)))
        let tailer = FileTailer(path: path, format: .wire)
        #expect(!tailer.holdsDescriptor, "nothing is opened before the first poll")
        #expect(try tailer.poll().events.map(\.sequence) == [1, 2])
        #expect(tailer.holdsDescriptor)
        // Released in the middle of a line: the line's first part is kept with the place.
        let third = goodLine(sequence: 3)
        try append(path, Array(third.prefix(12)))
        #expect(try tailer.poll().events.isEmpty)
        tailer.releaseDescriptor()
        #expect(!tailer.holdsDescriptor)
        try append(path, Array(third.dropFirst(12)) + goodLine(sequence: 4))
        let next = try tailer.poll()
        #expect(next.events.map(\.sequence) == [3, 4])
        #expect(!next.rotated && !next.truncated)
        #expect(tailer.holdsDescriptor)
        // Another file put at the path while it was released: a rotation, the new file read from its beginning.
        tailer.releaseDescriptor()
        try create(atPath: directory + "/new.ndjson", contents: Data(goodLine(sequence: 10)))
        #expect(rename(directory + "/new.ndjson", path) == 0)
        let rotated = try tailer.poll()
        #expect(rotated.rotated)
        #expect(rotated.events.map(\.sequence) == [10])
        #expect(tailer.statistics.events == 5)
        #expect(tailer.statistics.rotations == 1)
    }

    @Test func aGzFileReleasedBetweenPiecesIsReadWhole() throws {
        let path = try temporaryDirectory() + "/app.ndjson.gz"
        var plain: [UInt8] = []
        for sequence in 1...20_000 { plain += goodLine(sequence: UInt64(sequence)) }
        try Data(gzip(plain)).write(to: URL(fileURLWithPath: path))
        let tailer = FileTailer(path: path, format: .wire)
        var sequences: [UInt64] = []
        var polls = 0
        while true {
            let batch = try tailer.poll()
            polls += 1
            sequences += batch.events.compactMap(\.sequence)
            tailer.releaseDescriptor()
            if !batch.more { break }
        }
        #expect(polls > 2)
        #expect(sequences == Array(1...20_000))
    }
}
