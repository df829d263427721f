import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Testing

/// Events from other processes flow through the same runtime as local ones.
struct RemoteIngestTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    static func errorEvent(_ code: ErrorCode, at seconds: Double, origin: ErrorOrigin = .user) -> WireEvent {
        WireEvent(
            kind: .error, time: start.addingTimeInterval(seconds), serviceName: "checkout-api", pid: 4242,
            hostName: "web-1", source: "checkout", exceptionType: "Checkout.PaymentError",
            exceptionMessage: "POST /pay -> 503", userMessage: "Payments are down", code: code, category: .transient,
            severity: .error, origin: origin)
    }

    @Test func remoteErrorsReachTheStreamAsClassifiedErrors() async {
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: DemoClock(clock), startDate: Self.start, content: .external)
        let events = runtime.stream.events(bufferingPolicy: .unbounded)
        runtime.ingest.ingest(Self.errorEvent("N-503", at: 0))
        runtime.stream.finish()
        var received: [ErrorEvent] = []
        for await event in events { received.append(event) }
        #expect(received.count == 1)
        let classification = Classification(of: received[0].error)
        #expect(classification.code == "N-503")
        #expect(classification.typeName == "Checkout.PaymentError")
        #expect(classification.userMessage == "Payments are down")
        #expect(received[0].source == "checkout")
        #expect(received[0].metadata["service.name"] == "checkout-api")
        #expect(received[0].metadata["process.pid"] == "4242")
    }

    @Test func remoteLogsGoToTheLogsPaneAndMetricsToTheBackend() {
        let runtime = DashboardRuntime(
            clock: DemoClock(ManualClock()), startDate: Self.start, content: .external)
        runtime.ingest.ingest(
            WireEvent(
                kind: .log, time: Self.start, serviceName: "worker", source: "jobs", severity: .notice,
                body: "job 7 done"))
        runtime.ingest.ingest(
            WireEvent(
                kind: .metric, time: Self.start, serviceName: "worker", metricName: "queue.depth", metricValue: 12))
        let actions = runtime.inbox.drain()
        guard case .eventsReceived(let events)? = actions.first else {
            Issue.record("expected the log line")
            return
        }
        #expect(events.map(\.message) == ["job 7 done"])
        #expect(events.first?.kind == .log)
        #expect(events.first?.source == "jobs")
        #expect(runtime.metrics.gaugeValue("queue.depth") == 12)
    }

    @Test func sourcesArePublishedInTheOrderTheyAppeared() {
        let runtime = DashboardRuntime(clock: DemoClock(ManualClock()), startDate: Self.start, content: .external)
        runtime.ingest.update(SourceStatus(id: "b", kind: .socket, name: "b", state: "connected", health: .ok))
        runtime.ingest.update(SourceStatus(id: "a", kind: .file, name: "a", state: "following", health: .ok))
        runtime.ingest.update(SourceStatus(id: "b", kind: .socket, name: "b", state: "disconnected", health: .idle))
        #expect(runtime.ingest.statuses.map(\.id) == ["b", "a"])
        #expect(runtime.ingest.statuses.first?.state == "disconnected")
    }

    @Test func aRecordingRendersWithItsOwnTimesAndASourcesRow() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID()).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = try ErrorWatchWire.Recorder(path: file.path)
        for second in 0..<10 { try recorder.append(Self.errorEvent("N-503", at: Double(second) * 0.5)) }
        try recorder.append(Self.errorEvent("N-503", at: 5, origin: .background))
        try recorder.close()
        let player = try RecordingPlayer(path: file.path, speed: 2)
        let outcome = HeadlessRenderer(
            options: .init(width: 120, height: 40, duration: .seconds(4), recording: player)
        ).run()
        #expect(outcome.statistics.added == 11)
        let alert = try #require(outcome.state.alerts.first)
        #expect(alert.count == 10)
        #expect(alert.title == "Payments are down")
        #expect(outcome.state.now == Self.start.addingTimeInterval(8))
        let source = try #require(outcome.state.sources.first)
        #expect(source.state == "finished")
        #expect(source.events == 11)
        #expect(outcome.screen.textLines().joined().contains("Sources"))
    }
}
