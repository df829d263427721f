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

/// `--listen otlp-grpc:PORT` (and `--otlp`'s pair) through the runtime: gRPC exports reach the same ingest as
/// OTLP/HTTP ones, each resource is a Sources row of the gRPC receiver, and a port already taken is a clear error
/// that leaves nothing listening.
@Suite(.timeLimit(.minutes(5)))
struct OTLPGRPCSourcesTests {
    static func logs(service: String, instance: String) -> [UInt8] {
        OTLPLogsRequestBody.protobuf(
            service: service, instance: instance, scope: "invoices",
            records: [
                .init(
                    body: "invoice failed", severityNumber: 17,
                    exception: .init(type: "TaxError", message: "no rate for XX", stacktrace: "at tax()")),
                .init(body: "invoice 12 sent"),
            ])
    }

    /// Every event a runtime ingests, in order.
    final class Seen: Sendable {
        private let events = Mutex<[WireEvent]>([])
        var all: [WireEvent] { events.withLock { $0 } }
        func append(_ event: WireEvent) { events.withLock { $0.append(event) } }
    }

    /// A runtime listening for OTLP over gRPC and over HTTP on free ports (`--otlp`'s pair), with what it ingests.
    static func listening() async throws
        -> (runtime: DashboardRuntime, external: ExternalSources, seen: Seen, grpc: OTLPEndpoint, http: OTLPEndpoint)
    {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let seen = Seen()
        runtime.ingest.observe { seen.append($0) }
        let external = ExternalSources(
            listen: [], tail: [],
            otlp: [OTLPEndpoint(port: 0, transport: .grpc), OTLPEndpoint(port: 0, transport: .http)],
            ingest: runtime.ingest, clock: runtime.clock)
        try await external.start()
        let bound = external.boundOTLPEndpoints
        return (
            runtime, external, seen, try #require(bound.first { $0.transport == .grpc }),
            try #require(bound.first { $0.transport == .http })
        )
    }

    @Test func grpcAndHTTPExportsReachOneIngestAndEachIsARow() async throws {
        let (runtime, external, seen, grpc, _) = try await Self.listening()
        let exporter = try OTLPGRPCExporter(host: "127.0.0.1", port: grpc.port)
        let running = Task { try await exporter.run() }
        let answer = try await exporter.export(.logs, body: Self.logs(service: "billing", instance: "b-7"))
        exporter.close()
        _ = await running.result
        await external.shutdown()

        guard case .ok = answer else {
            Issue.record("the gRPC export failed: \(answer)")
            return
        }
        let events = seen.all
        #expect(events.map(\.kind) == [.error, .log])
        #expect(events.first?.exceptionType == "TaxError")
        #expect(runtime.sampleMetrics().totalErrors == 1)
        let row = try #require(runtime.ingest.statuses.first { $0.kind == .otlp && $0.name == "billing (b-7)" })
        // Keyed by the endpoint asked for, as the HTTP receiver's rows are.
        #expect(row.id.hasPrefix("otlp:billing/b-7@otlp-grpc:127.0.0.1:"))
        #expect(row.events == 2)
        #expect(row.health == .ok)
    }

    /// One span of trace 0x11…11 from `service`, with id `id` under `parent`, recording `exception`, as a request.
    static func span(service: String, id: UInt8, parent: UInt8?, exception: (type: String, message: String))
        throws -> [UInt8]
    {
        func attribute(_ key: String, _ value: String) -> OTLPProtoKeyValue {
            var pair = OTLPProtoKeyValue()
            pair.key = key
            pair.value.stringValue = value
            return pair
        }
        var span = OTLPProtoTraceSpan()
        span.traceID = Data(repeating: 0x11, count: 16)
        span.spanID = Data([0, 0, 0, 0, 0, 0, 0, id])
        if let parent { span.parentSpanID = Data([0, 0, 0, 0, 0, 0, 0, parent]) }
        span.name = "\(service) call"
        span.startTimeUnixNano = 1_700_000_000_000_000_000 + UInt64(id) * 1_000_000
        span.endTimeUnixNano = span.startTimeUnixNano + 1_000_000
        span.status.code = .error
        var event = OTLPProtoTraceSpan.Event()
        event.name = "exception"
        event.timeUnixNano = span.startTimeUnixNano
        event.attributes = [
            attribute("exception.type", exception.type), attribute("exception.message", exception.message),
        ]
        span.events = [event]
        var scope = OTLPProtoTraceScopeSpans()
        scope.spans = [span]
        var resource = OTLPProtoTraceResourceSpans()
        resource.resource.attributes = [attribute("service.name", service)]
        resource.scopeSpans = [scope]
        var request = OTLPProtoExportTraceServiceRequest()
        request.resourceSpans = [resource]
        return try request.serializedBytes()
    }

    @Test func aFailureOnSpansExportedOverBothTransportsIsOneError() async throws {
        // One trace, two services exporting differently: the payment service over OTLP/HTTP, the checkout that
        // called it over gRPC. The exception is recorded on the payment's span and again on its parent, the
        // checkout's: one failure, counted once, because both receivers share what they remember of the trace.
        let (runtime, external, seen, grpc, http) = try await Self.listening()
        let declined = (type: "CardDeclined", message: "card 4242 declined")

        var post = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(http.port)/v1/traces")))
        post.httpMethod = "POST"
        post.setValue("application/x-protobuf", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(try Self.span(service: "payments", id: 2, parent: 1, exception: declined))
        let (_, response) = try await URLSession.shared.data(for: post)
        let exporter = try OTLPGRPCExporter(host: "127.0.0.1", port: grpc.port)
        let running = Task { try await exporter.run() }
        let answer = try await exporter.export(
            .traces, body: try Self.span(service: "checkout", id: 1, parent: nil, exception: declined))
        exporter.close()
        _ = await running.result
        await external.shutdown()

        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        guard case .ok = answer else {
            Issue.record("the gRPC export failed: \(answer)")
            return
        }
        let errors = seen.all.filter { $0.kind == .error }
        #expect(errors.count == 1, "\(errors.map { $0.source ?? "?" })")
        #expect(errors.first?.exceptionType == "CardDeclined")
        #expect(runtime.sampleMetrics().totalErrors == 1)
    }

    @Test func aTakenPortStopsTheStartWithAClearErrorAndLeavesNothingListening() async throws {
        let first = OTLPGRPCReceiver(endpoint: OTLPEndpoint(port: 0, transport: .grpc), onEvents: { _, _ in })
        try await first.start()
        let taken = try #require(first.localEndpoint)
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let external = ExternalSources(
            listen: [], tail: [], otlp: [OTLPEndpoint(port: 0, transport: .http), taken], ingest: runtime.ingest,
            clock: runtime.clock)
        do {
            try await external.start()
            Issue.record("the dashboard started on a taken port")
            await external.shutdown()
        } catch {
            #expect("\(error)" == "cannot listen on \(taken): address already in use")
        }
        // The HTTP receiver started before it was shut again: nothing of this dashboard listens.
        #expect(external.boundOTLPEndpoints.isEmpty)
        await first.shutdown()
    }
}
