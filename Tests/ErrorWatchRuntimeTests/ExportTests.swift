import ErrorStreaming
import ErrorWatchRuntime
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Testing

/// `W`: the kept events that match the filters, saved as a recording that `render --from` reads back.
struct ExportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/foreign-producer.ndjson").path

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ew-export-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func wSavesWhatMatchesAndTheFileRendersAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let player = try RecordingPlayer(path: Self.fixture)
        // Filter to the shop.payments lines, then save: 2 of the recording's 6 Logs lines.
        let keys = try Key.parseSequence("/ s h o p . p a y m e n t s Enter W").get()
        var options = HeadlessRenderer.Options(
            width: 120, height: 40, keys: keys, duration: try player.measure().playingTime * 4, recording: player)
        options.exporter = EventExporter(directory: folder.path)
        let outcome = HeadlessRenderer(options: options).run()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(file.hasPrefix("errorwatch-2026") && file.hasSuffix(".ndjson"))
        #expect(outcome.state.screen.statusMessage?.contains(file) == true)
        let saved = try RecordingReader(path: folder.appendingPathComponent(file).path).readAll()
        #expect(saved.badLines.isEmpty)
        #expect(saved.entries.count == 2)
        #expect(saved.entries.allSatisfy { $0.event.source == "shop.payments" })
        let error = try #require(saved.entries.first { $0.event.kind == .error })
        #expect(error.event.exceptionType == "shop.payments.GatewayTimeout")
        #expect(error.event.serviceName == "shop-py")
        #expect(error.event.pid == 4242)

        // And it plays back: render --from the saved file shows the same alert.
        let replay = HeadlessRenderer(
            options: .init(
                width: 120, height: 40, duration: .seconds(10),
                recording: try RecordingPlayer(path: folder.appendingPathComponent(file).path))
        ).run()
        #expect(replay.state.errors.alerts.map(\.title) == ["GatewayTimeout: POST /charge timed out after 3000 ms"])
    }

    @Test func namesNeverOverwriteAnEarlierExport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let exporter = EventExporter(directory: folder.path)
        let date = Date(timeIntervalSince1970: 1_795_338_003)
        let event = DashboardEvent(
            sequence: 1, timestamp: date, kind: .log, level: .info, source: "x", typeName: "", message: "hello")
        let first = try exporter.write([event], at: date)
        let second = try exporter.write([event], at: date)
        #expect(first.hasSuffix("errorwatch-20261122-090003.ndjson"))
        #expect(second.hasSuffix("errorwatch-20261122-090003-2.ndjson"))
    }

    @Test func anUnwritableFolderIsReportedOnTheStatusLine() throws {
        let exporter = EventExporter(directory: "/nonexistent/errorwatch-exports")
        #expect(throws: (any Error).self) {
            try exporter.write([], at: Date(timeIntervalSince1970: 0))
        }
    }
}
