import ErrorStreaming
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchRuntime
@testable import ErrorWatchWire

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

    @Test func grpcAndHTTPExportsReachOneIngestAndEachIsARow() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let seen = Mutex<[WireEvent]>([])
        runtime.ingest.observe { event in seen.withLock { $0.append(event) } }
        let external = ExternalSources(
            listen: [], tail: [],
            otlp: [OTLPEndpoint(port: 0, transport: .grpc), OTLPEndpoint(port: 0, transport: .http)],
            ingest: runtime.ingest, clock: runtime.clock)
        try await external.start()
        let bound = external.boundOTLPEndpoints
        let grpc = try #require(bound.first { $0.transport == .grpc })
        #expect(bound.contains { $0.transport == .http })
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
        let events = seen.withLock { $0 }
        #expect(events.map(\.kind) == [.error, .log])
        #expect(events.first?.exceptionType == "TaxError")
        #expect(runtime.sampleMetrics().totalErrors == 1)
        let row = try #require(runtime.ingest.statuses.first { $0.kind == .otlp && $0.name == "billing (b-7)" })
        // Keyed by the endpoint asked for, as the HTTP receiver's rows are.
        #expect(row.id.hasPrefix("otlp:billing/b-7@otlp-grpc:127.0.0.1:"))
        #expect(row.events == 2)
        #expect(row.health == .ok)
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
