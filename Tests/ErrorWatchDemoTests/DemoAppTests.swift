import CoreMetrics
import ErrorStreaming
import ErrorStreamingTesting
import Foundation
import Logging
import Synchronization
import Testing

@testable import ErrorWatchDemo

/// The demo on its own, as an app: no dashboard, only the stream, a log handler, a metrics factory and a status
/// sink, as any app would be given.
struct DemoAppTests {
    @Test func everyActionHasExactlyOneKeyAndKeysAreDistinct() {
        #expect(Set(DemoApp.keys.map(\.key)).count == DemoApp.keys.count)
        #expect(
            DemoApp.keys.map(\.action).sorted { $0.rawValue < $1.rawValue }
                == DemoAction.allCases.sorted {
                    $0.rawValue < $1.rawValue
                })
        #expect(DemoApp.action(for: "s") == .serverErrorBurst)
        #expect(DemoApp.action(for: "q") == nil, "q stays the dashboard's")
    }

    @Test func failureDomainsAreDistinctTypesWithStableCodes() {
        let errors: [(any ClassifiedError, String, ErrorCode)] = [
            (CredentialsError.rejected, "CredentialsError", ErrorCode("A", 101)),
            (NetworkError.offline, "NetworkError", ErrorCode("N", 1)),
            (NetworkError.timeout(after: .seconds(2)), "NetworkError", ErrorCode("N", 408)),
            (ServerError.unavailable(status: 503, request: "GET /"), "ServerError", ErrorCode("N", 503)),
            (SessionError.expired, "SessionError", ErrorCode("A", 401)),
            (SyncError(cause: ErrorCode("N", 503), reason: "down"), "SyncError", ErrorCode("S", 1)),
        ]
        for (error, type, code) in errors {
            let classification = Classification(of: error)
            #expect(classification.typeName.hasSuffix("." + type))
            #expect(classification.code == code)
        }
        #expect(SyncError(cause: ErrorCode("N", 503), reason: "down").technicalMessage.contains("N-503"))
    }

    @Test func startingPublishesStatusesAndLogsThroughWhatItIsGiven() async {
        let statuses = Collected<DemoStatus>()
        let records = Collected<String>()
        let clock = ManualClock()
        let app = DemoApp(
            stream: ErrorStream(), clock: ErasedClock(clock), metrics: NOOPMetricsHandler.instance,
            now: { Date(timeIntervalSince1970: 0) },
            logHandler: { label in RecordingLogHandler(label: label, records: records) },
            statusSink: { statuses.append($0) })
        app.start()
        defer { app.stop() }
        #expect(statuses.values.map(\.name) == ["login", "session", "sync"])
        #expect(statuses.values.allSatisfy { $0.health == .idle })
        #expect(records.values.contains { $0.hasPrefix("app: demo app started") })
    }
}

/// Values appended from any thread.
final class Collected<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// Keeps `label: message` of every record.
struct RecordingLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    let label: String
    let records: Collected<String>

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append("\(label): \(event.message)")
    }
}
