import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// Issue 14, item 3: a recording is streamed (one chunk, one reorder window), never loaded whole.
struct RecordingStreamTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func event(at seconds: Double, _ sequence: UInt64) -> WireEvent {
        WireEvent(
            kind: .error, time: Self.start.addingTimeInterval(seconds), serviceName: "shop", exceptionType: "E",
            sequence: sequence)
    }

    func write(_ events: [WireEvent], to path: String, extra: [UInt8] = []) throws {
        let encoder = WireEncoder()
        var bytes: [UInt8] = []
        for event in events { bytes += try encoder.encode(event) }
        try create(atPath: path, contents: Data(bytes + extra))
    }

    @Test func theWindowOrdersByTimeAndKeepsArrivalOrderForEqualTimes() {
        var window = ReorderWindow<String>(capacity: 3)
        let at = { Self.start.addingTimeInterval($0) }
        window.insert("c", at: at(3))
        window.insert("a1", at: at(1))
        window.insert("a2", at: at(1))
        #expect(window.isFull)
        #expect(window.removeFirst()?.item == "a1")
        #expect(window.removeFirst()?.item == "a2")
        // Earlier than what already left: late, so it leaves next at the watermark, late ones in arrival order.
        window.insert("late1", at: at(0))
        window.insert("late2", at: at(0.5))
        #expect(window.lateCount == 2)
        let first = window.removeFirst()
        #expect(first?.item == "late1" && first?.time == at(1))
        #expect(window.removeFirst()?.item == "late2")
        #expect(window.removeFirst()?.item == "c")
        #expect(window.removeFirst() == nil)
    }

    /// 5,000 events (several 64 KiB chunks) through a window of 100: each event is at most 40 lines from its
    /// place in time, so the reader returns them in exact time order with non-decreasing offsets.
    @Test func aFileLargerThanTheWindowComesOutInTimeOrder() throws {
        let path = try temporaryDirectory() + "/shuffled.ndjson"
        var events: [WireEvent] = []
        for block in 0..<125 {
            // Each block of 40 lines is written in reverse time order.
            for index in (0..<40).reversed() {
                let sequence = UInt64(block * 40 + index)
                events.append(event(at: Double(sequence) * 0.01, sequence))
            }
        }
        try write(events, to: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int > 4 * RecordingFile.chunkBytes)
        let reader = try RecordingReader(path: path, reorderCapacity: 100)
        var sequences: [UInt64] = []
        var offsets: [Duration] = []
        while let entry = try reader.next() {
            sequences.append(entry.event.sequence ?? 0)
            offsets.append(entry.offset)
        }
        #expect(sequences == Array(0..<5_000))
        #expect(offsets == (0..<5_000).map { .milliseconds(10 * $0) })
        #expect(reader.lateCount == 0 && reader.badLineCount == 0)
        #expect(reader.start == Self.start)
    }

    /// An event further out of place than the window allows plays at once, at the current offset, in file order.
    @Test func anEventLaterThanTheWindowPlaysAtOnceInFileOrder() throws {
        let path = try temporaryDirectory() + "/late.ndjson"
        var events = (0..<20).map { event(at: Double($0), UInt64($0)) }
        events.insert(event(at: 2.5, 100), at: 15)
        events.insert(event(at: 1.5, 101), at: 16)
        try write(events, to: path)
        let reader = try RecordingReader(path: path, reorderCapacity: 4)
        let entries = try reader.readAll().entries
        #expect(entries.count == 22)
        #expect(reader.lateCount == 2)
        let late = try #require(entries.firstIndex { $0.event.sequence == 100 })
        #expect(entries[late + 1].event.sequence == 101)
        #expect(entries[late].offset == entries[late - 1].offset && entries[late + 1].offset == entries[late].offset)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.offset <= $1.offset })
    }

    @Test func badLinesAreCountedAndTheLastLineNeedsNoNewline() throws {
        let path = try temporaryDirectory() + "/crashed.ndjson"
        let good = try WireEncoder().encode(event(at: 1, 2))
        // Longer than a recording's line limit (1 MiB, room for an error's report).
        let overlong = Array(repeating: UInt8(ascii: "x"), count: RecordingFile.maximumLineBytes + 10) + Array("\n".utf8)
        let bytes = Array("{not json\n".utf8) + good + overlong + Array(good.dropLast())
        try create(atPath: path, contents: Data(bytes))
        let reader = try RecordingReader(path: path)
        let recording = try reader.readAll()
        #expect(recording.events.map(\.sequence) == [2, 2])
        #expect(reader.badLineCount == 2)
        #expect(recording.badLines.count == 2)
        #expect(recording.badLines.contains { if case .lineTooLong = $0 { true } else { false } })
    }

    @Test func anEmptyFileHasNoEvents() throws {
        let path = try temporaryDirectory() + "/empty.ndjson"
        try create(atPath: path, contents: Data())
        let reader = try RecordingReader(path: path)
        #expect(try reader.next() == nil)
        #expect(reader.start == nil && reader.badLineCount == 0)
    }

    @Test func aMissingFileOrADirectoryIsRefusedInOneSentence() throws {
        let directory = try temporaryDirectory()
        #expect(throws: FileProblem(path: directory + "/gone.ndjson", errno: ENOENT, doing: "read the recording")) {
            try RecordingFile(path: directory + "/gone.ndjson")
        }
        do {
            _ = try RecordingReader(path: directory + "/gone.ndjson")
            Issue.record("a missing recording was opened")
        } catch {
            #expect("\(error)" == "cannot read the recording \(directory)/gone.ndjson: no such file or directory")
        }
        do {
            _ = try RecordingReader(path: directory)
            Issue.record("a directory was opened as a recording")
        } catch {
            #expect("\(error)" == "cannot read the recording \(directory): it is not a regular file")
        }
    }
}
