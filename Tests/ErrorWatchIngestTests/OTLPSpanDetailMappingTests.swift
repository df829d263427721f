import Foundation
import Testing

@testable import ErrorWatchIngest

/// A span's attributes, events (an exception's stack trace whole) and links reach its ``TraceSpan`` for the span's
/// detail view (issue 37, item 2), bounded per span.
struct OTLPSpanDetailMappingTests {
    @Test func attributesEventsAndLinksAreKept() throws {
        var span = OTLPFixtures.span(
            "POST /checkout", id: 1, kind: .server, exceptions: [("CardDeclined", "card 4242 declined")],
            attributes: [
                OTLPFixtures.string("http.route", "/checkout"), OTLPFixtures.int("http.response.status_code", 402),
            ])
        var retry = OTLPProtoTraceSpan.Event()
        retry.name = "retry"
        retry.timeUnixNano = span.startTimeUnixNano + 10
        retry.attributes = [OTLPFixtures.int("attempt", 2)]
        span.events.append(retry)
        var link = OTLPProtoTraceSpan.Link()
        link.traceID = Data(repeating: 0xEE, count: 16)
        link.spanID = OTLPFixtures.spanID(9)
        link.attributes = [OTLPFixtures.string("messaging.operation", "receive")]
        var broken = OTLPProtoTraceSpan.Link()
        broken.traceID = Data([1, 2, 3])
        span.links = [link, broken]
        let batch = OTLPTraceMapper.map(
            OTLPFixtures.traces([span]), memory: OTLPTraceMemory(), receivedAt: Date(timeIntervalSince1970: 0))
        let mapped = try #require(batch.groups.first?.spans.first)
        #expect(mapped.attributes == ["http.route": "/checkout", "http.response.status_code": "402"])
        #expect(mapped.events.map(\.name) == ["exception", "retry"])
        #expect(mapped.events[0].attributes["exception.type"] == "CardDeclined")
        #expect(mapped.events[0].attributes["exception.stacktrace"]?.contains("POST /checkout.py\", line 7") == true)
        #expect(mapped.events[1].attributes == ["attempt": "2"] && mapped.events[1].timeUnixNano == retry.timeUnixNano)
        #expect(mapped.links.count == 1, "a link with a malformed id is left out")
        #expect(mapped.links.first?.traceID == String(repeating: "ee", count: 16))
        #expect(mapped.links.first?.spanID == 0xAB09)
        #expect(mapped.links.first?.attributes == ["messaging.operation": "receive"])
    }

    @Test func eventsAndLinksAreBoundedPerSpan() throws {
        var span = OTLPFixtures.span("busy", id: 1)
        span.events = (0..<100).map { index in
            var event = OTLPProtoTraceSpan.Event()
            event.name = "tick \(index)"
            return event
        }
        span.links = (0..<100).map { _ in
            var link = OTLPProtoTraceSpan.Link()
            link.traceID = OTLPFixtures.traceID
            link.spanID = OTLPFixtures.spanID(2)
            return link
        }
        let batch = OTLPTraceMapper.map(
            OTLPFixtures.traces([span]), memory: OTLPTraceMemory(), receivedAt: Date(timeIntervalSince1970: 0))
        let mapped = try #require(batch.groups.first?.spans.first)
        #expect(mapped.events.count == OTLPTraceMapper.maximumEventsPerSpan)
        #expect(mapped.links.count == OTLPTraceMapper.maximumLinksPerSpan)
    }
}
