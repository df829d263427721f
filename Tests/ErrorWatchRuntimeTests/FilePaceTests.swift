import CZlib
import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchRuntime

/// Issue 34, item 3: a `.gz` file is read at the pace its lines are taken, a bomb costs a piece of work per interval,
/// and a stop is answered between two pieces, not at the end of the file.
@Suite(.timeLimit(.minutes(3)))
struct FilePaceTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    static func folder(_ name: String = #function) -> String {
        let folder = "/tmp/ew34-pace-tests/\(name.filter { $0.isLetter })-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `chunk` `times` times, then `tail`, gzip-compressed to `path`, a chunk at a time (a bomb is never
    /// held whole).
    static func writeGzip(_ path: String, chunk: [UInt8], times: Int, tail: [UInt8] = []) throws {
        var stream = z_stream()
        deflateInit2_(
            &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var compressed: [UInt8] = []
        var out = [UInt8](repeating: 0, count: 64 * 1024)
        func feed(_ bytes: [UInt8], flush: Int32) {
            var input = bytes
            input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                repeat {
                    let produced = out.withUnsafeMutableBufferPointer { outBuffer in
                        stream.next_out = outBuffer.baseAddress
                        stream.avail_out = UInt32(outBuffer.count)
                        deflate(&stream, flush)
                        return outBuffer.count - Int(stream.avail_out)
                    }
                    compressed += out.prefix(produced)
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        for _ in 0..<times { feed(chunk, flush: Z_NO_FLUSH) }
        feed(tail, flush: Z_FINISH)
        try Data(compressed).write(to: URL(fileURLWithPath: path))
    }

    static func errorLine(_ sequence: Int) -> String {
        #"{"v":1,"kind":"error","time":"2026-11-23T10:00:00Z","service.name":"bomb","exception.type":"Bomb.Error","#
            + #""exception.message":"inflated","sequence":\#(sequence)}"# + "\n"
    }

    /// How many pieces `bytes` read: a poll stops at the first inflation that reaches its piece, so it may go over
    /// by less than one inflation buffer (64 KiB).
    static func pieces(_ bytes: UInt64) -> Int {
        let piece = UInt64(FileTailer.maximumBytesPerPoll)
        let count = Int(bytes / piece)
        return bytes % piece < UInt64(count) * 64 * 1024 || bytes % piece == 0 ? count : -1
    }

    final class Count: Sendable {
        let events = Atomic<Int>(0)
        let first = Mutex<CheckedContinuation<Void, Never>?>(nil)
    }

    @Test func aBombOfOneEndlessLineCostsAPiecePerIntervalAndHoldsNobodyBack() async throws {
        let folder = Self.folder()
        let bomb = folder + "/zeros.log.gz"
        // 64 MiB of zeros, a few dozen KiB compressed: one line that never ends.
        try Self.writeGzip(bomb, chunk: [UInt8](repeating: 0, count: 1024 * 1024), times: 64)
        let good = folder + "/good.ndjson"
        try (1...30).map(Self.errorLine).joined().write(toFile: good, atomically: true, encoding: .utf8)
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let count = Count()
        runtime.ingest.observe { _ in count.events.add(1, ordering: .relaxed) }
        let bombTailer = FileTailer(path: bomb, from: .beginning)
        let tailers = [bombTailer, FileTailer(path: good, from: .beginning)]
        let follower = FileFollower(tailers: tailers, interval: .milliseconds(200))
        follower.start(into: runtime.ingest, clock: ErasedClock(clock))
        await clock.waitForSleepers()
        // Before the follower slept: the piece that found the line too long (a bad line, so a line ended) and the
        // one after it, which ended none; the other file was read whole, not held back by the bomb.
        #expect(Self.pieces(bombTailer.bytesRead) == 2)
        #expect(count.events.load(ordering: .relaxed) == 30)
        for interval in 1...3 {
            clock.advance(by: .milliseconds(200))
            await clock.waitForSleepers()
            #expect(Self.pieces(bombTailer.bytesRead) == interval + 2, "one piece more per interval")
        }
        let row = try #require(runtime.ingest.statuses.first { $0.detail == bomb })
        #expect(row.badLines == 1, "the endless line is counted, once")
        await follower.stop()
    }

    @Test func aStopIsAnsweredBetweenTwoPiecesNotAtTheEndOfTheFile() async throws {
        let folder = Self.folder()
        let path = folder + "/app.ndjson.gz"
        // 200,000 error lines (about 28 MiB inflated, 28 pieces), compressed.
        let block = (1...1_000).map(Self.errorLine).joined()
        try Self.writeGzip(path, chunk: Array(block.utf8), times: 200)
        let total = 200_000
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.t0)
        let count = Count()
        runtime.ingest.observe { _ in
            if count.events.add(1, ordering: .relaxed).newValue == 1 {
                let waiting = count.first.withLock { first in
                    defer { first = nil }
                    return first
                }
                waiting?.resume()
            }
        }
        let tailer = FileTailer(path: path, from: .beginning)
        let follower = FileFollower(tailers: [tailer], interval: .milliseconds(200))
        // The signal: the first event handed on.
        await withCheckedContinuation { continuation in
            count.first.withLock { $0 = continuation }
            follower.start(into: runtime.ingest, clock: ErasedClock(clock))
        }
        let atStop = count.events.load(ordering: .relaxed)
        await follower.stop()
        let afterStop = count.events.load(ordering: .relaxed)
        // Stopped within the events of a piece or two, however much of the file is left.
        #expect(afterStop - atStop <= FileFollower.lookahead + 1_024)
        #expect(afterStop < total / 2)
        #expect(tailer.bytesRead < UInt64(total / 2 * Self.errorLine(100_000).utf8.count))
        // Between two polls the reader holds one read of compressed bytes and one piece of inflated ones.
        #expect(tailer.heldInflationBytes <= 3 * 64 * 1024)
    }
}
