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

/// `--listen sentry:PORT` through the runtime: an envelope's error reaches the stream with its report, typed, and
/// the Logs pane's event carries it to the detail view; the SDK client is a Sources row.
@Suite(.timeLimit(.minutes(5)))
struct SentrySourcesTests {
    static let event = #"""
        {"event_id":"82db82e17ecd4b24911d62035e5731a6","release":"shop@1.4.2","environment":"staging",
         "exception":{"values":[{"type":"InventoryError","value":"shelf is empty","mechanism":{"handled":false},
           "stacktrace":{"frames":[{"function":"restock","filename":"shop.py","lineno":33,"in_app":true,
             "context_line":"    raise InventoryError(shelf)","vars":{"shelf":"'north'"}}]}}]},
         "tags":{"run":"a1"}}
        """#

    static func post(_ envelope: String, to port: Int) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/api/1/envelope/")))
        request.httpMethod = "POST"
        request.setValue("application/x-sentry-envelope", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "Sentry sentry_key=k, sentry_version=7, sentry_client=sentry.python/2.75.0",
            forHTTPHeaderField: "X-Sentry-Auth")
        request.httpBody = Data(envelope.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    @Test func anEnvelopesErrorReachesTheStreamWithItsReportAndItsClientIsARow() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let events = runtime.stream.events(bufferingPolicy: .unbounded)
        let external = ExternalSources(
            listen: [], tail: [], ingest: runtime.ingest, clock: runtime.clock, sentry: [SentryEndpoint(port: 0)])
        try await external.start()
        let port = try #require(external.boundSentryEndpoints.first?.port)
        let payload = Self.event.replacingOccurrences(of: "\n", with: "")
        let envelope = "{}\n" + #"{"type":"event","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
        #expect(try await Self.post(envelope, to: port) == 200)
        await external.shutdown()
        runtime.stream.finish()
        var received: [ErrorEvent] = []
        for await event in events { received.append(event) }
        #expect(received.count == 1)
        let remote = try #require(received.first?.error as? RemoteError)
        #expect(remote.typeName == "InventoryError")
        #expect(remote.provenance.serviceVersion == "shop@1.4.2")
        #expect(remote.provenance.environment == "staging")
        #expect(remote.report?.exceptions.first?.frames.first?.variables == [.init("shelf", "'north'")])
        #expect(remote.provenance.receivedFrom == "sentry sentry.python/2.75.0 shop@1.4.2 on \(SentryEndpoint(port: port))")
        // The Logs pane's view keeps the report for the detail.
        let shown = DashboardEvent(try #require(received.first))
        #expect(shown.report == remote.report)
        #expect(shown.report?.tags == [.init("run", "a1")])
        let row = try #require(runtime.ingest.statuses.first { $0.kind == .sentry })
        #expect(row.name == "sentry.python/2.75.0 (shop@1.4.2)")
        #expect(row.events == 1)
        #expect(row.health == .ok)
    }

    /// An exception captured inside a transaction, then the transaction (the order an SDK sends them in): the
    /// error's trace is watched, the transaction's spans reach the trace store and the error's detail as a tree,
    /// and what is recorded (the observed wire event) carries the error's report.
    @Test func aTransactionsSpansReachTheTraceOfAnErrorCapturedInsideIt() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let recorded = Mutex<[WireEvent]>([])
        runtime.ingest.observe { event in recorded.withLock { $0.append(event) } }
        let external = ExternalSources(
            listen: [], tail: [], ingest: runtime.ingest, clock: runtime.clock, sentry: [SentryEndpoint(port: 0)])
        try await external.start()
        let port = try #require(external.boundSentryEndpoints.first?.port)
        let trace = "a4a8df4141a14af9b93407bb7f4ce3e9"
        let error = Self.event.replacingOccurrences(of: "\n", with: "").replacingOccurrences(
            of: #""tags":{"run":"a1"}"#,
            with: #""tags":{"run":"a1"},"contexts":{"trace":{"trace_id":"\#(trace)","span_id":"1111111111111111"}}"#)
        let transaction = #"""
            {"type":"transaction","transaction":"checkout","start_timestamp":1795630459.5,"timestamp":1795630460,
             "contexts":{"trace":{"trace_id":"\#(trace)","span_id":"830dd69515c89dfa","op":"task","status":"ok"}},
             "spans":[{"op":"db.query","description":"SELECT stock","status":"internal_error",
                       "span_id":"1111111111111111","parent_span_id":"830dd69515c89dfa",
                       "start_timestamp":1795630459.6,"timestamp":1795630459.7}]}
            """#.replacingOccurrences(of: "\n", with: "")
        for (type, payload) in [("event", error), ("transaction", transaction)] {
            let envelope = "{}\n" + #"{"type":"\#(type)","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
            #expect(try await Self.post(envelope, to: port) == 200)
        }
        await external.shutdown()
        #expect(runtime.ingest.traceStatistics.spans == 2)
        let snapshots = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { return snapshot }
            return nil
        }
        let latest = try #require(snapshots.last)
        #expect(latest.traceID == trace)
        #expect(latest.spans.map(\.name) == ["task: checkout", "db.query: SELECT stock"])
        #expect(latest.spans.map(\.status) == [.ok, .error])
        #expect(latest.spans.last?.parentSpanID == latest.spans.first?.spanID)
        // The recording's copy of the error keeps its report.
        let errors = recorded.withLock { $0 }.filter { $0.kind == .error && $0.exceptionType == "InventoryError" }
        #expect(errors.count == 1)
        #expect(errors.first?.report?.exceptions.first?.frames.first?.variables == [.init("shelf", "'north'")])
        #expect(errors.first?.report?.tags == [.init("run", "a1")])
    }
}
