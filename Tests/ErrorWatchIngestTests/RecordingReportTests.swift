import ErrorStreaming
import Foundation
import IngestTestSupport
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// `--record` keeps an error's ``ExceptionReport``: written and read back whole, within the recording's line limit
/// (a larger report recorded with less, saying so), and recordings written before it still read.
struct RecordingReportTests {
    static let time = Date(timeIntervalSince1970: 1_795_630_460)

    static func error(_ report: ExceptionReport?) -> WireEvent {
        var event = WireEvent(kind: .error, time: time, exceptionType: "InventoryError", exceptionMessage: "shelf empty")
        event.report = report
        return event
    }

    /// A Sentry event as the mapper bounds it: what a live error's detail shows.
    static func mapped() throws -> SentryMappedEvent {
        let payload = try #require(SentryJSON.object(Array(SentryMappingTests.pythonEvent.utf8)[...]))
        return try #require(SentryEventMapper.map(type: "event", payload: payload, receivedAt: time).first)
    }

    @Test func aSentryErrorsReportIsRecordedAndReadBackWhole() throws {
        let path = try temporaryDirectory() + "/sentry.ndjson"
        let mapped = try Self.mapped()
        let report = try #require(mapped.report)
        var event = mapped.event
        event.report = report
        let writer = try RecordingWriter(path: path)
        try writer.append(event)
        try writer.append(Self.error(nil))
        try writer.close()
        let recording = try RecordingReader(path: path).readAll()
        #expect(recording.badLines.isEmpty)
        #expect(recording.events.count == 2)
        let replayed = try #require(recording.events.first { $0.report != nil })
        // Breadcrumb times are kept to the microsecond (seconds since 1970 as a JSON number); all else exactly.
        var expected = try #require(mapped.report)
        var got = try #require(replayed.report)
        #expect(zip(expected.breadcrumbs, got.breadcrumbs).allSatisfy { pair in
            abs((pair.0.timestamp ?? .distantPast).timeIntervalSince(pair.1.timestamp ?? .distantFuture)) < 1e-6
        })
        for index in expected.breadcrumbs.indices { expected.breadcrumbs[index].timestamp = nil }
        for index in got.breadcrumbs.indices { got.breadcrumbs[index].timestamp = nil }
        #expect(got == expected)
        #expect(!got.exceptions.isEmpty && !got.tags.isEmpty && !got.breadcrumbs.isEmpty)
        #expect(RemoteError(replayed)?.report?.exceptions == mapped.report?.exceptions)
    }

    @Test func aReportTooLargeForALineIsRecordedWithLessAndSaysSo() throws {
        let path = try temporaryDirectory() + "/large.ndjson"
        let big = String(repeating: "v", count: 1_000)
        let frame = ExceptionReport.Frame(
            function: "restock", file: "shop/stock.py", line: 33, inApp: true, contextLine: "raise",
            variables: (0..<50).map { .init("v\($0)", big) })
        // 50 contexts of 100 fields of 1,000 characters: five megabytes, as the mapper's bounds allow.
        let report = ExceptionReport(
            exceptions: [.init(type: "InventoryError", frames: [frame])], tags: [.init("run", "a1")],
            contexts: (0..<50).map { section in .init("c\(section)", (0..<100).map { .init("f\($0)", big) }) },
            breadcrumbs: [.init(message: "signed in", data: [.init("user", "ada")])])
        let writer = try RecordingWriter(path: path)
        try writer.append(Self.error(report))
        try writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count <= RecordingFile.maximumLineBytes)
        let recording = try RecordingReader(path: path).readAll()
        let got = try #require(recording.events.first?.report)
        #expect(got.contexts.isEmpty)
        #expect(got.breadcrumbs.map(\.message) == ["signed in"])
        #expect(got.breadcrumbs.first?.data == [])
        // What fits is kept: the chain, the frame with its variables, the tags.
        #expect(got.exceptions == report.exceptions)
        #expect(got.tags == report.tags)
        #expect(got.cut.count == 1)
        #expect(got.cut.first?.hasPrefix("this report was ") == true)
        #expect(got.cut.first?.hasSuffix("recorded without contexts, user, request and breadcrumb data") == true)
    }

    @Test func evenAChainTooLargeForALineKeepsTheEventAndSaysWhy() throws {
        let path = try temporaryDirectory() + "/huge.ndjson"
        let long = String(repeating: "f", count: 1_000)
        let frames = (0..<250).map { ExceptionReport.Frame(function: long, module: long, file: long, line: $0) }
        let report = ExceptionReport(
            exceptions: (0..<5).map { _ in .init(type: "E", frames: frames) }, cut: ["frames: kept 250"])
        let writer = try RecordingWriter(path: path)
        try writer.append(Self.error(report))
        try writer.close()
        let got = try #require(try RecordingReader(path: path).readAll().events.first)
        #expect(got.exceptionType == "InventoryError")
        #expect(got.report?.exceptions == [])
        #expect(got.report?.cut.first == "frames: kept 250")
        #expect(got.report?.cut.last?.hasSuffix("recorded without any of it") == true)
    }

    @Test func aRecordingWrittenBeforeReportsStillReads() throws {
        let path = try temporaryDirectory() + "/old.ndjson"
        let old = #"{"v":1,"kind":"error","time":"2026-11-25T18:14:19.820000Z","exception.type":"InventoryError","trace_id":"40beb41695bc4d4fadba2d6f6b171953","fingerprint":"sentry:InventoryError|shop.stock.restock"}"#
        try create(atPath: path, contents: Data((old + "\n").utf8))
        let recording = try RecordingReader(path: path).readAll()
        #expect(recording.badLines.isEmpty)
        #expect(recording.events.map(\.exceptionType) == ["InventoryError"])
        #expect(recording.events.first?.report == nil)
    }
}

/// The reorder window holds fewer events when they carry large reports, never more memory.
struct RecordingReportWindowTests {
    @Test func largeReportsShrinkTheWindowNotTheMemoryBound() throws {
        let path = try temporaryDirectory() + "/window.ndjson"
        let report = ExceptionReport(tags: (0..<100).map { .init("t\($0)", String(repeating: "x", count: 100)) })
        // Out of order by one: event 1 is written before event 0.
        var events = (0..<4).map { index in
            var event = RecordingReportTests.error(report)
            event.time = RecordingReportTests.time.addingTimeInterval(Double(index))
            event.sequence = UInt64(index)
            return event
        }
        events.swapAt(0, 1)
        let writer = try RecordingWriter(path: path)
        for event in events { try writer.append(event) }
        try writer.close()
        // Room for both: back in time order.
        let roomy = try RecordingReader(path: path, reorderCapacity: 10).readAll()
        #expect(roomy.events.map(\.sequence) == [0, 1, 2, 3])
        // Room for one report's bytes: one event at a time, so event 0 comes late, at event 1's time.
        let reader = try RecordingReader(path: path, reorderCapacity: 10, reorderReportBytes: report.estimatedBytes)
        let tight = try reader.readAll()
        #expect(tight.events.map(\.sequence) == [1, 0, 2, 3])
        #expect(reader.lateCount == 1)
        #expect(tight.events.allSatisfy { $0.report == report })
    }
}
