import ErrorStreaming
import Foundation
import SwiftProtobuf
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// `POST /v1/traces` on the real receiver: the answers and limits of logs and metrics, both body formats, gzip,
/// spans and errors delivered before the answer, and what bad input costs its sender.
@Suite(.timeLimit(.minutes(5)))
struct OTLPTraceReceiverTests {
    static let protobuf = ["Content-Type": "application/x-protobuf"]
    static let json = ["Content-Type": "application/json"]

    @Test func protobufTracesDeliverSpansAndErrorsBeforeTheAnswer() async throws {
        let (receiver, probe, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        let request = OTLPFixtures.traces([
            OTLPFixtures.span("charge", id: 2, parent: 1, kind: .client, exceptions: [("CardDeclined", "declined")]),
            OTLPFixtures.span("POST /checkout", id: 1, kind: .server, status: .error, statusMessage: "CardDeclined: declined"),
        ])
        let response = try await post(port, "/v1/traces", headers: Self.protobuf, body: try request.serializedBytes())
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/x-protobuf")
        let answer = try OTLPProtoExportTraceServiceResponse(serializedBytes: response.body)
        #expect(!answer.hasPartialSuccess)
        #expect(probe.spans.map(\.name) == ["charge", "POST /checkout"])
        #expect(probe.events.map(\.exceptionType) == ["CardDeclined"], "one failure, one error")
        let source = try #require(probe.sources["shop/i-1"])
        #expect(source.records == 2 && source.events == 1 && source.requests == 1)
    }

    @Test func jsonTracesWithHexIdsDecodeAndAnswerInJSON() async throws {
        let (receiver, probe, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        let body = """
            {"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},
            "scopeSpans":[{"scope":{"name":"flask"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c",
            "spanId":"eee19b7ec3c1b174","parentSpanId":"0102030405060708","name":"GET /items","kind":2,
            "startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000250000000",
            "status":{"code":"STATUS_CODE_ERROR","message":"boom"},
            "events":[{"timeUnixNano":"1700000000100000000","name":"exception","attributes":[
            {"key":"exception.type","value":{"stringValue":"KeyError"}},
            {"key":"exception.message","value":{"stringValue":"'sku'"}}]}]}]}]}]}
            """
        let response = try await post(port, "/v1/traces", headers: Self.json, body: Array(body.utf8))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        let span = try #require(probe.spans.first)
        #expect(span.traceID == "5b8efff798038103d269b633813fc60c")
        #expect(span.spanID == 0xeee1_9b7e_c3c1_b174 && span.parentSpanID == 0x0102_0304_0506_0708)
        #expect(span.kind == .server && span.status == .error && span.statusMessage == "boom")
        #expect(span.endUnixNano - span.startUnixNano == 250_000_000)
        let error = try #require(probe.events.first)
        #expect(probe.events.count == 1)
        #expect(error.exceptionType == "KeyError" && error.exceptionMessage == "'sku'")
        #expect(error.traceID == "5b8efff798038103d269b633813fc60c" && error.spanID == "eee19b7ec3c1b174")
    }

    @Test func gzipBodiesInflate() async throws {
        let (receiver, probe, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        let body: [UInt8] = try OTLPFixtures.traces([OTLPFixtures.span("a", id: 1)]).serializedBytes()
        let response = try await post(
            port, "/v1/traces", headers: Self.protobuf.merging(["Content-Encoding": "gzip"]) { $1 }, body: gzip(body))
        #expect(response.status == 200)
        #expect(probe.spans.count == 1)
    }

    @Test func badIdsAreAPartialSuccessCountedForTheSender() async throws {
        let (receiver, probe, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        var bad = OTLPFixtures.span("bad", id: 1)
        bad.traceID = Data(repeating: 1, count: 8)
        let request = OTLPFixtures.traces([bad, OTLPFixtures.span("good", id: 2)])
        let response = try await post(port, "/v1/traces", headers: Self.protobuf, body: try request.serializedBytes())
        #expect(response.status == 200)
        let answer = try OTLPProtoExportTraceServiceResponse(serializedBytes: response.body)
        #expect(answer.partialSuccess.rejectedSpans == 1)
        #expect(answer.partialSuccess.errorMessage == "spans with a trace id of 8 bytes (16 expected)")
        #expect(probe.spans.map(\.name) == ["good"])
        let source = try #require(probe.sources["shop/i-1"])
        #expect(source.rejected == 1 && source.lastProblem == "spans with a trace id of 8 bytes (16 expected)")
    }

    @Test func wrongTypesGarbageAndOversizeGetTheirStatuses() async throws {
        let (receiver, probe, port) = try await startReceiver(limits: OTLPReceiver.Limits(maximumBodyBytes: 1_024))
        defer { Task { await receiver.shutdown() } }
        let text = try await post(port, "/v1/traces", headers: ["Content-Type": "text/plain"], body: [1])
        #expect(text.status == 415)
        let garbage = try await post(port, "/v1/traces", headers: Self.protobuf, body: [0xFF, 0xFF, 0xFF])
        #expect(garbage.status == 400)
        let status = try OTLPProtoStatus(serializedBytes: garbage.body)
        #expect(status.code == 3 && status.message.contains("ExportTraceServiceRequest"))
        let big = try await post(port, "/v1/traces", headers: Self.protobuf, body: [UInt8](repeating: 0, count: 2_048))
        #expect(big.status == 413)
        #expect(probe.spans.isEmpty)
        #expect(probe.sources["client 127.0.0.1"]?.badRequests == 3)
    }

    @Test func aDashboardBehindAnswers503WithRetryAfterAndKeepsNothing() async throws {
        let (receiver, probe, port) = try await startReceiver(room: { _ in false })
        defer { Task { await receiver.shutdown() } }
        let body: [UInt8] = try OTLPFixtures.traces([OTLPFixtures.span("a", id: 1, exceptions: [("E", "m")])])
            .serializedBytes()
        let response = try await post(port, "/v1/traces", headers: Self.protobuf, body: body)
        #expect(response.status == 503)
        #expect(response.headers["retry-after"] == "1")
        #expect(probe.spans.isEmpty && probe.events.isEmpty)
        #expect(probe.sources["shop/i-1"]?.refused == 1)
    }

    @Test func aTraceOfOneHundredThousandSpansInOneRequestIsTakenWhole() throws {
        // 100,000 minimal spans are 3.3 MB of protobuf: within the 4 MiB body limit.
        var spans: [OTLPProtoTraceSpan] = []
        spans.reserveCapacity(100_000)
        for index in 0..<100_000 {
            var span = OTLPProtoTraceSpan()
            span.traceID = OTLPFixtures.traceID
            span.spanID = Data(withUnsafeBytes(of: UInt64(index + 1).bigEndian) { Array($0) })
            span.name = "s"
            spans.append(span)
        }
        let body: [UInt8] = try OTLPFixtures.traces(spans).serializedBytes()
        #expect(body.count < OTLPReceiver.Limits().maximumBodyBytes)
        let answer = OTLPRequestDecoder().decode(path: "/v1/traces", contentType: "application/x-protobuf", body: body)
        #expect(answer.status == 200)
        #expect(answer.spans.count == 100_000 && answer.rejected == 0 && answer.events.isEmpty)
    }
}
