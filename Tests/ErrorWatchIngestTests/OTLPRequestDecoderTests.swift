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
}
