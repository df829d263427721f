import ErrorStreaming
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchRuntime
@testable import ErrorWatchWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--listen otlp:PORT` through the runtime: OTLP records reach the ingest, each resource is a Sources row, and
/// the receiver asks the inbox for room.
@Suite(.timeLimit(.minutes(5)))
struct OTLPSourcesTests {
    /// One OTLP/JSON log export with an exception record and a plain one.
    static let export = """
        {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"billing"}},
        {"key":"service.instance.id","value":{"stringValue":"b-7"}}]},"scopeLogs":[{"scope":{"name":"invoices"},
        "logRecords":[{"severityNumber":17,"body":{"stringValue":"invoice failed"},"attributes":[
        {"key":"exception.type","value":{"stringValue":"TaxError"}},
        {"key":"exception.message","value":{"stringValue":"no rate for XX"}}]},
        {"severityNumber":9,"body":{"stringValue":"invoice 12 sent"}}]}]}]}
        """

    static func post(_ body: String, to port: Int) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/logs")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    @Test func otlpRecordsReachTheIngestAndEachResourceIsASourcesRow() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let seen = Mutex<[WireEvent]>([])
        runtime.ingest.observe { event in seen.withLock { $0.append(event) } }
        let external = ExternalSources(
            listen: [], tail: [], otlp: [OTLPEndpoint(port: 0)], ingest: runtime.ingest, clock: runtime.clock)
        try await external.start()
        let port = try #require(external.boundOTLPEndpoints.first?.port)
        #expect(try await Self.post(Self.export, to: port) == 200)
        await external.shutdown()

        let events = seen.withLock { $0 }
        #expect(events.map(\.kind) == [.error, .log])
        #expect(events.first?.exceptionType == "TaxError")
        let row = try #require(runtime.ingest.statuses.first { $0.kind == .otlp })
        #expect(row.name == "billing (b-7)")
        #expect(row.events == 2)
        #expect(row.health == .ok)
    }

    @Test func aFullInboxStillHasRoomItSamplesWhatItCannotShow() {
        let inbox = ActionInbox(eventCapacity: 3)
        let ingest = RemoteIngest(
            stream: ErrorStream(), inbox: inbox, metrics: DashboardMetrics(), now: { Date(timeIntervalSince1970: 0) })
        let line = WireEvent(kind: .log, time: Date(), body: "x")
        #expect(ingest.hasRoom(for: 100))
        for _ in 0..<10 { ingest.ingest(line) }
        #expect(inbox.sampledOut == 7)
        #expect(ingest.hasRoom(for: 1))
    }

    @Test func theIngestRefusesOnlyWhileTheUIHasLeftTheInboxUndrainedPastTheStallLimit() {
        let inbox = ActionInbox(eventCapacity: 3)
        let time = Mutex(Date(timeIntervalSince1970: 1_000))
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
        let ingest = RemoteIngest(
            stream: ErrorStream(), inbox: inbox, metrics: DashboardMetrics(), now: { time.withLock { $0 } },
            uiStallLimit: 0.1)
        let line = WireEvent(kind: .log, time: Date(), body: "x")
        advance(60)
        #expect(ingest.hasRoom(for: 1), "an empty inbox: nothing to fall behind on, however long it has been")

        ingest.ingest(line)
        #expect(ingest.hasRoom(for: 1))
        advance(0.09)
        #expect(ingest.hasRoom(for: 1), "within the limit")
        advance(0.02)
        #expect(!ingest.hasRoom(for: 1), "undrained for 0.11 s: the UI is behind")
        ingest.ingest(line)
        #expect(!ingest.hasRoom(for: 1), "more posts do not restart the wait")

        _ = inbox.drain()
        #expect(ingest.hasRoom(for: 1), "drained")
        ingest.ingest(line)
        #expect(ingest.hasRoom(for: 1), "a new arrival is watched from when a request first sees it")
        advance(0.05)
        #expect(ingest.hasRoom(for: 1))
        advance(0.06)
        #expect(!ingest.hasRoom(for: 1))
        _ = inbox.drain()
        ingest.ingest(line)
        #expect(ingest.hasRoom(for: 1), "drained and refilled between two requests: the UI is keeping up")
    }

    /// A batch far larger than the inbox keeps is admitted whole and every error of it is counted, with its
    /// source's row exact, though the inbox shows only the latest of them.
    @Test func everyAdmittedRecordIsCountedWhateverTheInboxKeeps() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let external = ExternalSources(
            listen: [], tail: [], otlp: [OTLPEndpoint(port: 0)], ingest: runtime.ingest, clock: runtime.clock)
        try await external.start()
        let port = try #require(external.boundOTLPEndpoints.first?.port)
        let records = (0..<5_000).map { index in
            OTLPLogsRequestBody.Record(
                body: "failed \(index)", severityNumber: 17,
                exception: .init(type: "LoadError", message: "failed \(index)", stacktrace: "at load()"))
        }
        let body = OTLPLogsRequestBody.protobuf(service: "load", instance: "l-1", scope: "load", records: records)
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/logs")))
        request.httpMethod = "POST"
        request.setValue("application/x-protobuf", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let (answer, response) = try await URLSession.shared.data(for: request)
        await external.shutdown()

        #expect(try #require(response as? HTTPURLResponse).statusCode == 200)
        #expect(OTLPLogsRequestBody.rejectedLogRecords(inResponse: Array(answer)) == 0)
        #expect(runtime.sampleMetrics().totalErrors == 5_000)
        let row = try #require(runtime.ingest.statuses.first { $0.kind == .otlp })
        #expect(row.events == 5_000)
    }

    /// What one OTLP request changed is one publication: however many resources it named, and with the rows the
    /// receiver forgot to make room taken out and counted.
    @Test func aRequestsRowsArePublishedOnceAndForgottenRowsLeave() {
        var table = SourceTable(endedKept: 100)
        let endpoint = OTLPEndpoint(port: 4318)
        let senders = (0..<3_000).map { index in
            var sender = SenderStatus(key: "svc/i-\(index)", peer: "127.0.0.1:1")
            sender.serviceName = "svc"
            sender.instanceID = "i-\(index)"
            return SourceStatus(sender, receiver: endpoint)
        }
        guard case .publish(let first, let forgotten) = table.update(senders, forgetting: []) else {
            Issue.record("a batch is published")
            return
        }
        #expect(first.count == 3_000 && forgotten == nil)
        #expect(table.published() == .none, "one publication for the whole batch")
        let gone = ["svc/i-0", "svc/i-1"].map { SourceStatus.otlpID(key: $0, receiver: endpoint) }
        guard case .publish(let second, let count) = table.update([], forgetting: gone + ["never-listed"]) else {
            Issue.record("forgetting rows is published")
            return
        }
        #expect(second.count == 2_998 && count == 2)
        #expect(!second.contains { gone.contains($0.id) })
    }

    /// A receiver that evicted or refused shows it in its own row; one that did not has no row.
    @Test func aReceiverThatMetItsLimitsHasABudgetsRow() {
        var statistics = OTLPReceiver.Statistics()
        statistics.evictedConnections = 44
        statistics.overBodyBudget = 1
        let row = SourceStatus(receiver: OTLPEndpoint(port: 4318), statistics, limits: OTLPReceiver.Limits())
        #expect(row.state.contains("evicted 44 connections (limit 256"))
        #expect(row.state.contains("refused 1 request over the body budget"))
        #expect(row.health == .degraded)

        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let receiver = runtime.ingest.makeOTLPServer(endpoint: OTLPEndpoint(port: 0))
        #expect(runtime.ingest.publishStatistics(of: receiver, shown: OTLPReceiver.Statistics()) == .init())
        #expect(!runtime.ingest.statuses.contains { $0.id.hasPrefix("receiver:") })
    }
}
