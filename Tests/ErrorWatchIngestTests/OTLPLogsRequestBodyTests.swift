import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// `OTLPLogsRequestBody` (the load generator's bodies) decodes back through the receiver, as sent and gzip'ed.
struct OTLPLogsRequestBodyTests {
    static let records = [
        OTLPLogsRequestBody.Record(
            body: "payment failed", severityNumber: 17, attributes: ["order": "A-19"],
            exception: .init(
                type: "Shop.PaymentError", message: "card declined", stacktrace: "at pay()\nat checkout()"),
            timeUnixNano: 1_800_000_000_000_000_000),
        OTLPLogsRequestBody.Record(body: "order A-20 shipped", severityNumber: 9),
    ]

    @Test(arguments: [false, true])
    func aBodyDecodesBackThroughTheReceiver(gzipped: Bool) async throws {
        let (receiver, probe, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        let plain = OTLPLogsRequestBody.protobuf(
            service: "shop", instance: "shop-2", scope: "checkout", records: Self.records)
        var headers = ["Content-Type": "application/x-protobuf"]
        if gzipped { headers["Content-Encoding"] = "gzip" }
        let response = try await post(port, headers: headers, body: gzipped ? OTLPLogsRequestBody.gzip(plain) : plain)

        #expect(response.status == 200)
        #expect(OTLPLogsRequestBody.rejectedLogRecords(inResponse: response.body) == 0)
        let events = probe.events
        try #require(events.count == 2)
        #expect(events[0].kind == .error)
        #expect(events[0].exceptionType == "Shop.PaymentError")
        #expect(events[0].exceptionMessage == "card declined")
        #expect(events[0].exceptionStacktrace == "at pay()\nat checkout()")
        #expect(events[0].severity == .error)
        #expect(events[0].attributes["order"] == "A-19")
        #expect(events[0].source == "checkout")
        #expect(events[0].time == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(events[1].kind == .log)
        #expect(events[1].body == "order A-20 shipped")
        for event in events {
            #expect(event.serviceName == "shop")
            #expect(event.attributes["service.instance.id"] == "shop-2")
        }
    }

    @Test func theRejectedCountIsReadFromAPartialSuccess() async throws {
        let (receiver, _, port) = try await startReceiver()
        defer { Task { await receiver.shutdown() } }
        // A record without body or attributes is rejected (docs/otlp.md), the others kept.
        let empty = OTLPLogsRequestBody.Record(body: "")
        let body = OTLPLogsRequestBody.protobuf(
            service: "shop", instance: nil, scope: "s", records: Self.records + [empty])
        let response = try await post(port, headers: ["Content-Type": "application/x-protobuf"], body: body)
        #expect(response.status == 200)
        #expect(OTLPLogsRequestBody.rejectedLogRecords(inResponse: response.body) == 1)
        #expect(OTLPLogsRequestBody.rejectedLogRecords(inResponse: [0xFF, 0xFF]) == nil)
    }
}
