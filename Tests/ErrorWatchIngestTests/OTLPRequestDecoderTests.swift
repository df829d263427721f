import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Testing

/// `OTLPRequestDecoder`, the receiver's request handling without a socket (the OTLP fuzz target's entry point),
/// gives the receiver's answers.
struct OTLPRequestDecoderTests {
    static let json = """
        {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},
        "scopeLogs":[{"scope":{"name":"payments"},"logRecords":[{"timeUnixNano":"1700000000000000000",
        "severityNumber":17,"body":{"stringValue":"boom"},"traceId":"5b8efff798038103d269b633813fc60c",
        "attributes":[{"key":"exception.type","value":{"stringValue":"ValueError"}}]},{"severityNumber":9}]}]}]}
        """

    @Test func aJSONBodyBecomesEventsAndRejectedRecordsAreCounted() throws {
        let answer = OTLPRequestDecoder().decode(
            path: "/v1/logs", contentType: "application/json; charset=utf-8", body: Array(Self.json.utf8))
        #expect(answer.status == 200)
        #expect(answer.rejected == 1)
        #expect(answer.events.count == 1)
        let event = try #require(answer.events.first)
        #expect(event.kind == .error && event.exceptionType == "ValueError" && event.serviceName == "api")
        #expect(event.traceID == "5b8efff798038103d269b633813fc60c")
    }

    @Test func requestsTheReceiverRefusesGetItsStatus() {
        let decoder = OTLPRequestDecoder(limits: OTLPReceiver.Limits(maximumBodyBytes: 64))
        let body = Array(Self.json.utf8)
        #expect(decoder.decode(path: "/v1/profiles", contentType: "application/json", body: body).status == 404)
        #expect(
            decoder.decode(path: "/v1/logs", method: "GET", contentType: "application/json", body: []).status == 405)
        #expect(decoder.decode(path: "/v1/logs", contentType: "text/plain", body: body).status == 415)
        #expect(decoder.decode(path: "/v1/logs", contentType: "application/json", body: body).status == 413)
        let corrupt = decoder.decode(
            path: "/v1/metrics", contentType: "application/x-protobuf", contentEncoding: "gzip", body: [0x1f, 0x8b, 1])
        #expect(corrupt.status == 400 && corrupt.events.isEmpty && corrupt.problem != nil)
        let notProtobuf = decoder.decode(path: "/v1/logs", contentType: "application/x-protobuf", body: [0xff, 0xff])
        #expect(notProtobuf.status == 400)
    }

    /// swift-otel 1.6's `http/json` exporter writes ids as SwiftProtobuf does, in base64, not in the hex OTLP/JSON
    /// asks for (seen in Tests/e2e/shop_otel.sh's `json` run). The receiver reads both; the ids come out as hex.
    @Test func base64IdsAsSwiftOTelSendsThemDecodeToTheSameHexIds() throws {
        let body = """
            {"resourceSpans":[{"resource":{"attributes":[
            {"key":"service.name","value":{"stringValue":"shop-server"}}]},
            "scopeSpans":[{"scope":{"name":"swift-otel","version":"1.0.0"},"spans":[
            {"traceId":"RS7eE7VCtdJQuR7Q5L9BbA==","spanId":"PydSQd98ST8=","name":"/checkout","kind":2,"startTimeUnixNano":"1795643530042760847",
            "endTimeUnixNano":"1795643530043843798","events":[{"timeUnixNano":"1795643530043000000","name":"exception",
            "attributes":[{"key":"exception.type","value":{"stringValue":"ShopCore.PaymentError"}},
            {"key":"exception.message","value":{"stringValue":"card declined"}}]}]}]}]}]}
            """
        let answer = OTLPRequestDecoder().decode(
            path: "/v1/traces", contentType: "application/json", body: Array(body.utf8))
        #expect(answer.status == 200 && answer.rejected == 0)
        let span = try #require(answer.spans.first)
        #expect(span.traceID == "452ede13b542b5d250b91ed0e4bf416c" && span.spanID == 0x3f27_5241_df7c_493f)
        let error = try #require(answer.events.first)
        #expect(error.exceptionType == "ShopCore.PaymentError")
        #expect(error.traceID == "452ede13b542b5d250b91ed0e4bf416c" && error.spanID == "3f275241df7c493f")
    }
}
