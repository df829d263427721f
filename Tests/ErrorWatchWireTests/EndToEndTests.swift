import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

/// The documented path, app to dashboard: stream → forwarder → socket → listener → RemoteError → stream.
struct EndToEndTests {
    struct InventoryTimeout: ClassifiedError {
        var category: ErrorCategory { .transient }
        var code: ErrorCode { "N-504" }
        var userMessage: String { "The warehouse is slow to answer." }
    }

    @Test func remoteErrorsReachTheDashboardStreamClassifiedAsTheAppSaid() async throws {
        let path = try temporaryDirectory() + "/e2e.sock"
        let dashboard = ErrorStream()
        let received = dashboard.events(bufferingPolicy: .unbounded)
        let listener = FeedListener(endpoint: try Endpoint(parsing: "unix:\(path)")) { _, event in
            if let error = RemoteError(event) { dashboard.add(error, context: event.errorContext) }
        }
        try await listener.start()

        let app = ErrorStream()
        let forwarder = ErrorForwarder(
            endpoint: .unix(path: path), source: SourceInfo(serviceName: "warehouse", pid: 77, host: "rack-2"),
            stream: app)
        forwarder.start()
        app.add(
            InventoryTimeout(),
            context: ErrorContext(source: "inventory.sync", severity: .warning, origin: .background, attempt: 3))
        app.add(InventoryTimeout())

        var iterator = received.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())
        let local = Classification(of: InventoryTimeout())
        let remote = Classification(of: first.error)
        #expect(remote.code == local.code && remote.category == local.category)
        #expect(remote.userMessage == local.userMessage)
        #expect(remote.fingerprint == local.fingerprint)  // alerts group remote and local errors alike
        #expect(first.source == "inventory.sync" && first.origin == .background && first.context.attempt == 3)
        #expect(first.severity == .warning && second.severity == .error)
        let provenance = try #require(first.error as? RemoteError)
        #expect(provenance.provenance.service == "warehouse" && provenance.provenance.pid == 77)

        await forwarder.shutdown()
        #expect(forwarder.statistics.sent == 2)
        await listener.shutdown()
        #expect(listener.producers.first?.eventsReceived == 2)
    }
}
