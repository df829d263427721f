import ErrorStreaming
import Logging
import Synchronization
import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

/// `TeeLogHandler` writes through the handler it wraps and forwards the same records, keeping metadata and level
/// in the wrapped handler alone.
@Suite(.timeLimit(.minutes(5)))
struct TeeLogHandlerTests {
    let source = SourceInfo(serviceName: "shop", pid: 321, host: "test-host")

    @Test func recordsAreWrittenThroughTheWrappedHandlerAndForwardedWithItsMetadata() async throws {
        let path = try temporaryDirectory() + "/tee.sock"
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        let forwarder = ErrorForwarder(endpoint: .unix(path: path), source: source)
        forwarder.start()
        let written = RecordedLines()
        var logger = Logger(label: "shop.http") { label in
            var console = RecordingLogHandler(lines: written)
            console.logLevel = .notice
            return TeeLogHandler(console, label: label, forwarder: forwarder)
        }
        logger[metadataKey: "request"] = "r-17"  // what a server framework sets on every request
        logger.info("below the wrapped handler's level: neither written nor sent")
        logger.warning("payment slow", metadata: ["ms": "900"])
        logger.error("payment failed", error: CheckoutDeclined())
        try await probe.until { $0.events.count == 2 }

        #expect(written.lines == ["warning payment slow ms=900 request=r-17", "error payment failed request=r-17"])
        let (slow, failed) = (probe.events[0].1, probe.events[1].1)
        #expect(slow.kind == .log && slow.body == "payment slow" && slow.severity == .warning)
        #expect(slow.source == "shop.http" && slow.serviceName == "shop" && slow.pid == 321)
        #expect(slow.attributes == ["ms": "900", "request": "r-17"])
        #expect(failed.code == "A-402" && failed.severity == .error && failed.attributes == ["request": "r-17"])

        logger.logLevel = .error  // the level is the wrapped handler's
        logger.warning("now below the level")
        #expect(logger.handler.logLevel == .error && written.lines.count == 2)
        await forwarder.shutdown()
        #expect(forwarder.statistics.sent == 2)
        await listener.shutdown()
    }
}

/// The lines a ``RecordingLogHandler`` wrote, in order.
private final class RecordedLines: Sendable {
    private let storage = Mutex<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}

/// A console stand-in: writes `level message key=value…` (keys sorted) for each record.
private struct RecordingLogHandler: LogHandler {
    let lines: RecordedLines
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = event.mergedMetadata(handler: metadata, provider: metadataProvider)
        let pairs = merged.keys.sorted().map { "\($0)=\(merged[$0] ?? "")" }
        lines.append((["\(event.level) \(event.message)"] + pairs).joined(separator: " "))
    }
}
