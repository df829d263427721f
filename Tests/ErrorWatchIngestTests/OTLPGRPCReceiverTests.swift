import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import SwiftProtobuf
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// The real OTLP/gRPC receiver on an ephemeral loopback port, called by a real grpc-swift client: the same
/// delivery as OTLP/HTTP, the status codes the specification asks for, gzip, and hostile calls.
@Suite(.timeLimit(.minutes(5)))
struct OTLPGRPCReceiverTests {
    /// Starts a gRPC receiver on a free loopback port; `room` answers its admission question.
    static func start(
        limits: OTLPReceiver.Limits = OTLPReceiver.Limits(), room: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) async throws -> (OTLPGRPCReceiver, OTLPProbe, Int) {
        let probe = OTLPProbe()
        let receiver = OTLPGRPCReceiver(
            endpoint: OTLPEndpoint(port: 0, transport: .grpc), limits: limits, hasRoom: room,
            onStatus: { probe.update($0, forgetting: $1) }, onSpans: { probe.deliver($0, spans: $1) },
            onEvents: { probe.deliver($0, $1) })
        try await receiver.start()
        let port = try #require(receiver.localEndpoint?.port)
        return (receiver, probe, port)
    }

    /// Runs `body` with a connected exporter, closed afterwards.
    static func withExporter<T: Sendable>(
        port: Int, gzip: Bool = true, _ body: (OTLPGRPCExporter) async throws -> T
    ) async throws -> T {
        let exporter = try OTLPGRPCExporter(host: "127.0.0.1", port: port, gzip: gzip)
        let running = Task { try await exporter.run() }
        defer { exporter.close() }
        let result = try await body(exporter)
        exporter.close()
        _ = await running.result
        return result
    }

    static let logs: [UInt8] = try! OTLPFixtures.logs([
        OTLPFixtures.record(body: "checkout failed", severity: .error, exception: ("CardDeclined", "card declined")),
        OTLPFixtures.record(body: "listening on :8080"),
    ]).serializedBytes()

    @Test func gzipLogsAreDeliveredBeforeTheAnswer() async throws {
        let (receiver, probe, port) = try await Self.start()
        let answer = try await Self.withExporter(port: port) { try await $0.export(.logs, body: Self.logs) }
        await receiver.shutdown()
        guard case .ok(let bytes) = answer else {
            Issue.record("the export failed: \(answer)")
            return
        }
        let response = try OTLPProtoExportLogsServiceResponse(serializedBytes: bytes)
        #expect(!response.hasPartialSuccess)
        let events = probe.events
        #expect(events.map(\.kind) == [.error, .log])
        #expect(events.first?.exceptionType == "CardDeclined")
        #expect(events.first?.exceptionMessage == "card declined")
        #expect(events.last?.body == "listening on :8080")
        let source = try #require(probe.sources["shop/i-1"])
        #expect(source.requests == 1 && source.records == 2 && source.events == 2)
        #expect(source.peer.hasPrefix("127.0.0.1:"))
    }

    /// The generated typed client, as an SDK calls: a request message in, a response message out.
    @Test func theGeneratedClientExportsLogs() async throws {
        let (receiver, probe, port) = try await Self.start()
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
        let client = GRPCClient(transport: transport)
        let running = Task { try await client.runConnections() }
        let logs = OTLPProtoLogsService.Client(wrapping: client)
        var options = CallOptions.defaults
        options.compression = .gzip
        let response = try await logs.export(
            OTLPFixtures.logs([OTLPFixtures.record(body: "hello over gRPC")]), options: options)
        client.beginGracefulShutdown()
        _ = await running.result
        await receiver.shutdown()
        #expect(!response.hasPartialSuccess)
        #expect(probe.events.map(\.body) == ["hello over gRPC"])
    }

    @Test func metricsAreMappedAsOverHTTP() async throws {
        let (receiver, probe, port) = try await Self.start()
        let body: [UInt8] = try OTLPFixtures.metrics([OTLPFixtures.gauge("queue.depth", 7)]).serializedBytes()
        let answer = try await Self.withExporter(port: port, gzip: false) { try await $0.export(.metrics, body: body) }
        await receiver.shutdown()
        guard case .ok = answer else {
            Issue.record("the export failed: \(answer)")
            return
        }
        // The HTTP receiver's own decoder on the same body: one mapping, two transports.
        let http = OTLPRequestDecoder().decode(path: "/v1/metrics", contentType: "application/x-protobuf", body: body)
        #expect(probe.events.map(\.metricName) == http.events.map(\.metricName))
        #expect(probe.events.map(\.metricValue) == [7])
    }

    @Test func aBodyThatDoesNotDecodeIsInvalidArgumentAndCountedAgainstItsClient() async throws {
        let (receiver, probe, port) = try await Self.start()
        let (bad, good) = try await Self.withExporter(port: port) { exporter in
            (
                try await exporter.export(.logs, body: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
                try await exporter.export(.logs, body: Self.logs)
            )
        }
        await receiver.shutdown()
        guard case .failed(let code, let message, let retry) = bad else {
            Issue.record("a malformed body was accepted")
            return
        }
        #expect(code == "INVALID_ARGUMENT")
        #expect(message.contains("ExportLogsServiceRequest"))
        #expect(retry == nil)
        let client = try #require(probe.sources["client 127.0.0.1"])
        #expect(client.badRequests == 1)
        #expect(client.lastProblem?.hasPrefix("INVALID_ARGUMENT: ") == true)
        // The same connection's next call is unaffected.
        #expect(good.isOK)
        #expect(probe.events.count == 2)
    }

    @Test func aMessageOverTheLimitIsResourceExhaustedSentOrInflated() async throws {
        let limits = OTLPReceiver.Limits(maximumBodyBytes: 4_096)
        let (receiver, probe, port) = try await Self.start(limits: limits)
        let large: [UInt8] = try OTLPFixtures.logs([
            // Over the 4 KiB limit, under the transport's own stop at twice it.
            OTLPFixtures.record(body: String(repeating: "x", count: 6 * 1024))
        ]).serializedBytes()
        let (plain, zipped, small) = try await Self.withExporter(port: port, gzip: false) { plain in
            try await Self.withExporter(port: port, gzip: true) { zipped in
                (
                    try await plain.export(.logs, body: large),
                    // Compresses to a few hundred bytes; inflates past the limit.
                    try await zipped.export(.logs, body: large),
                    try await zipped.export(.logs, body: Self.logs)
                )
            }
        }
        await receiver.shutdown()
        #expect(plain.code == "RESOURCE_EXHAUSTED")
        #expect(zipped.code == "RESOURCE_EXHAUSTED")
        #expect(plain.retryAfter == nil && zipped.retryAfter == nil)
        #expect(small.isOK)
        #expect(probe.sources["client 127.0.0.1"]?.badRequests == 2)
        #expect(probe.events.count == 2)
    }

    @Test func aDashboardBehindAnswersUnavailableWithRetryInfoAndKeepsNothing() async throws {
        let (receiver, probe, port) = try await Self.start(room: { _ in false })
        let answer = try await Self.withExporter(port: port) { try await $0.export(.logs, body: Self.logs) }
        await receiver.shutdown()
        #expect(answer.code == "UNAVAILABLE")
        #expect(answer.retryAfter == .seconds(1))
        #expect(probe.events.isEmpty)
        #expect(probe.sources["shop/i-1"]?.refused == 1)
    }

    @Test func aPortInUseIsAClearError() async throws {
        let (first, _, port) = try await Self.start()
        let second = OTLPGRPCReceiver(
            endpoint: OTLPEndpoint(port: port, transport: .grpc), onEvents: { _, _ in })
        do {
            try await second.start()
            Issue.record("two receivers listened on one port")
            await second.shutdown()
        } catch let error as WireTransportError {
            #expect("\(error)" == "cannot listen on otlp-grpc:127.0.0.1:\(port): address already in use")
        }
        await first.shutdown()
    }

    @Test func peersAreNamedAsTheHTTPReceiverNamesThem() {
        #expect(OTLPGRPCService.peer("ipv4:127.0.0.1:51234") == ("127.0.0.1:51234", "127.0.0.1"))
        #expect(OTLPGRPCService.peer("ipv6:[::1]:51234") == ("[::1]:51234", "::1"))
    }

    @Test func endpointsParseBothTransports() throws {
        let grpc = try OTLPEndpoint(parsing: "otlp-grpc:4317")
        #expect(grpc.transport == .grpc && grpc.port == 4317 && grpc.host == "127.0.0.1")
        #expect("\(grpc)" == "otlp-grpc:127.0.0.1:4317")
        #expect(try OTLPEndpoint(parsing: "otlp:4318").transport == .http)
        #expect(throws: WireTransportError.self) { try OTLPEndpoint(parsing: "otlp-grpc:") }
        #expect(OTLPEndpoint.matches("otlp-grpc:0.0.0.0:4317"))
    }
}

extension OTLPGRPCExporter.Answer {
    var isOK: Bool { if case .ok = self { true } else { false } }
    var code: String? { if case .failed(let code, _, _) = self { code } else { nil } }
    var retryAfter: Duration? { if case .failed(_, _, let retry) = self { retry } else { nil } }
    var message: String? { if case .failed(_, let message, _) = self { message } else { nil } }
}
