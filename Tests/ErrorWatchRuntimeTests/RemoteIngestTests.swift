import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

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

    @Test func remoteErrorsReachTheStreamAsClassifiedErrors() async throws {
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Self.start)
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
        // The producer's service and process travel typed on the error, not as metadata strings.
        let remote = try #require(received[0].error as? RemoteError)
        #expect(remote.provenance.service == "checkout-api")
        #expect(remote.provenance.pid == 4242)
    }

    @Test func remoteLogsGoToTheLogsPaneAndMetricsToTheBackend() {
        let runtime = DashboardRuntime(
            clock: ErasedClock(ManualClock()), startDate: Self.start)
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
        #expect(runtime.metrics.gaugeValue("remote.queue.depth") == 12)
    }

    /// A regression test: a producer's metric named like the dashboard's own gauge, with a negative value, used to
    /// crash the next metrics sample.
    @Test func remoteMetricsCannotShadowOrBreakTheDashboardsGauges() {
        let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: Self.start)
        for value in [-3, Double.infinity, -Double.infinity, Double.nan, 1e300] {
            runtime.ingest.ingest(
                WireEvent(
                    kind: .metric, time: Self.start, serviceName: "evil", metricName: "errorstream.dropped",
                    metricValue: value))
            runtime.ingest.ingest(
                WireEvent(
                    kind: .metric, time: Self.start, serviceName: "evil", metricName: "errorstream.listeners",
                    metricValue: value))
        }
        let snapshot = runtime.sampleMetrics()
        #expect(snapshot.droppedEvents == 0)
        #expect(snapshot.listenerCount == runtime.stream.statistics.subscribers)
    }

    @Test func remoteMetricNamesAreCapped() {
        let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: Self.start)
        for n in 0..<(RemoteIngest.maximumRemoteMetrics * 2) {
            runtime.ingest.ingest(
                WireEvent(kind: .metric, time: Self.start, metricName: "m\(n)", metricValue: Double(n)))
        }
        #expect(runtime.metrics.recorderCount <= RemoteIngest.maximumRemoteMetrics)
    }

    @Test func sourcesArePublishedInTheOrderTheyAppeared() {
        let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: Self.start)
        runtime.ingest.update(SourceStatus(id: "b", kind: .socket, name: "b", state: "connected", health: .ok))
        runtime.ingest.update(SourceStatus(id: "a", kind: .file, name: "a", state: "following", health: .ok))
        runtime.ingest.update(SourceStatus(id: "b", kind: .socket, name: "b", state: "disconnected", health: .idle))
        #expect(runtime.ingest.statuses.map(\.id) == ["b", "a"])
        #expect(runtime.ingest.statuses.first?.state == "disconnected")
    }

    @Test func aRecordingRendersWithItsOwnTimesAndASourcesRow() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID()).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = try RecordingWriter(path: file.path)
        for second in 0..<10 { try recorder.append(Self.errorEvent("N-503", at: Double(second) * 0.5)) }
        try recorder.append(Self.errorEvent("N-503", at: 5, origin: .background))
        try recorder.close()
        let player = try RecordingPlayer(path: file.path, speed: 2)
        let outcome = HeadlessRenderer(
            options: .init(width: 120, height: 40, duration: .seconds(4), recording: player)
        ).run()
        #expect(outcome.statistics.added == 11)
        let alert = try #require(outcome.state.errors.alerts.first)
        #expect(alert.count == 10)
        #expect(alert.title == "Payments are down")
        #expect(outcome.state.screen.now == Self.start.addingTimeInterval(8))
        let source = try #require(outcome.state.feeds.sources.first)
        #expect(source.state == "finished")
        #expect(source.events == 11)
        #expect(outcome.screen.textLines().joined().contains("Sources"))
    }

    /// A regression test: a recording whose lines are out of time order used to stop at its last line's time.
    @Test func anOutOfOrderRecordingPlaysEveryEventInTimeOrder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("unordered-\(UUID()).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = try RecordingWriter(path: file.path)
        for seconds in [5.0, 35, 6, 0] { try recorder.append(Self.errorEvent("N-503", at: seconds)) }
        try recorder.close()
        let player = try RecordingPlayer(path: file.path)
        #expect(player.startDate == Self.start)
        // Out of order, a 29 s silence: played as the default 5 s, so the recording lasts 11 s, not 35 s.
        let measured = try player.measure()
        #expect(measured.playingTime == .seconds(11))
        #expect(measured.skipped == .seconds(24) && measured.compressedGaps == 1)
        let entries = try RecordingReader(path: file.path).readAll().entries
        #expect(entries.map(\.offset) == [.zero, .seconds(5), .seconds(6), .seconds(35)])
        let outcome = HeadlessRenderer(
            options: .init(width: 120, height: 40, duration: measured.playingTime + .seconds(1), recording: player)
        ).run()
        #expect(outcome.statistics.added == 4)
        #expect(outcome.state.feeds.sources.first?.state == "finished · skipped 24s")
    }
}

/// Issue 14: the Sources pane keeps the live sources and the most recent ended ones, and counts the rest exactly.
struct SourceBudgetTests {
    @Test func endedSourcesBeyondTheKeptOnesAreCountedNotListed() {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let ingest = runtime.ingest
        ingest.update(SourceStatus(id: "live", kind: .socket, name: "keeps running", state: "connected", health: .ok))
        for index in 0..<350 {
            ingest.update(
                SourceStatus(id: "c\(index)", kind: .socket, name: "one-shot", state: "connected", health: .ok))
            ingest.update(
                SourceStatus(id: "c\(index)", kind: .socket, name: "one-shot", state: "closed", health: .idle))
        }
        let statuses = ingest.statuses
        #expect(statuses.count == RemoteIngest.endedSourcesKept + 1)
        #expect(statuses.first?.id == "live", "a live source is never forgotten")
        #expect(statuses.last?.id == "c349")
        var state = DashboardState(width: 120, height: 40, now: Date())
        for action in runtime.inbox.drain() { _ = DashboardReducer.reduce(into: &state, action: action) }
        #expect(state.feeds.forgottenSources == 250)
        #expect(state.feeds.sources.count == 101)
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("1 of 351 live"))
    }

    @Test func twoListenersProducersNeverShareARow() {
        let producer = ProducerStatus(id: ProducerID(1), peer: "unix", connectedAt: Date())
        let first = SourceStatus(producer, listener: .unix(path: "/tmp/a.sock"))
        let second = SourceStatus(producer, listener: .tcp(host: "127.0.0.1", port: 9000))
        #expect(first.id != second.id)
    }
}
