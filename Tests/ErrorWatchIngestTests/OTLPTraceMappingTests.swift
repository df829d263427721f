import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// Errors from spans, per the semantic conventions, and the one-failure-one-error rule (docs/otlp.md, "Traces").
struct OTLPTraceMappingTests {
    let received = Date(timeIntervalSince1970: 1_800_000_000)

    func map(_ spans: [OTLPProtoTraceSpan], memory: OTLPTraceMemory = OTLPTraceMemory()) -> OTLPMappedBatch {
        OTLPTraceMapper.map(OTLPFixtures.traces(spans), memory: memory, receivedAt: received)
    }

    @Test func anExceptionEventIsAnErrorWhateverTheStatus() throws {
        let batch = map([
            OTLPFixtures.span(
                "POST /checkout", id: 1, kind: .server, exceptions: [("CardDeclined", "card 4242 declined")],
                attributes: [
                    OTLPFixtures.string("http.request.method", "POST"), OTLPFixtures.string("http.route", "/checkout"),
                    OTLPFixtures.int("http.response.status_code", 402),
                ])
        ])
        let error = try #require(batch.events.first)
        #expect(batch.events.count == 1)
        #expect(error.kind == .error)
        #expect(error.exceptionType == "CardDeclined")
        #expect(error.exceptionMessage == "card 4242 declined")
        #expect(error.exceptionStacktrace?.contains("POST /checkout.py") == true)
        #expect(error.traceID == OTLPFixtures.traceHex)
        #expect(error.spanID == "000000000000ab01")
        #expect(error.serviceName == "shop" && error.serviceVersion == "2.4.1")
        #expect(error.deploymentEnvironment == "staging")
        #expect(error.pid == 4242 && error.hostName == "web-1")
        #expect(error.attributes["span.name"] == "POST /checkout")
        #expect(error.attributes["span.kind"] == "server")
        #expect(error.attributes["http.route"] == "/checkout")
        #expect(error.attributes["http.response.status_code"] == "402")
        #expect(error.attributes["exception.escaped"] == "True")
        #expect(error.attributes["exception.type"] == nil, "the exception's own members are not repeated")
        // The event's own time: half a second into the span.
        #expect(error.time == OTLPLogMapper.date(unixNanos: 1_700_000_000_001_000_000 + 500_000_000))
        let span = try #require(batch.groups.first?.spans.first)
        #expect(span.errors == 1 && span.status == .unset && span.kind == .server)
        #expect(span.traceID == OTLPFixtures.traceHex && span.spanID == 0xab01 && span.parentSpanID == nil)
    }

    @Test func anErrorStatusWithoutExceptionIsAnErrorTypedByErrorTypeElseByName() throws {
        let batch = map([
            OTLPFixtures.span(
                "GET /stock", id: 1, status: .error, statusMessage: "upstream timed out",
                attributes: [OTLPFixtures.string("error.type", "timeout")]),
            OTLPFixtures.span("reserve", id: 2, status: .error),
            OTLPFixtures.span("fine", id: 3, status: .ok),
        ])
        #expect(batch.events.map(\.exceptionType) == ["timeout", "reserve"])
        #expect(batch.events.map(\.exceptionMessage) == ["upstream timed out", nil])
        #expect(batch.events.allSatisfy { $0.exceptionStacktrace == nil && $0.traceID == OTLPFixtures.traceHex })
        #expect(batch.groups[0].spans.map(\.errors) == [1, 1, 0])
    }

    @Test func anExceptionAndAnErrorStatusOnOneSpanAreOneError() {
        let batch = map([
            OTLPFixtures.span(
                "charge", id: 1, status: .error, statusMessage: "CardDeclined: declined",
                exceptions: [("CardDeclined", "declined")])
        ])
        #expect(batch.events.count == 1)
        #expect(batch.events.first?.exceptionType == "CardDeclined")
    }

    @Test func theSameExceptionOnAChildAndItsAncestorsIsOneError() {
        // Python's SDK records an escaping exception on every span it passes through, child first.
        let batch = map([
            OTLPFixtures.span("db query", id: 3, parent: 2, status: .error, exceptions: [("Timeout", "no answer")]),
            OTLPFixtures.span("charge", id: 2, parent: 1, status: .error, exceptions: [("Timeout", "no answer")]),
            OTLPFixtures.span("POST /checkout", id: 1, status: .error, exceptions: [("Timeout", "no answer")]),
        ])
        #expect(batch.events.count == 1)
        #expect(batch.events.first?.spanID == "000000000000ab03", "the span that raised it is the one shown")
        #expect(batch.groups[0].spans.map(\.errors) == [1, 0, 0])
    }

    @Test func theSameFailureAcrossRequestsIsCountedOnceInEitherOrder() {
        let memory = OTLPTraceMemory()
        let child = map([OTLPFixtures.span("db", id: 3, parent: 1, exceptions: [("Timeout", "no answer")])], memory: memory)
        let parent = map(
            [OTLPFixtures.span("POST /checkout", id: 1, status: .error, statusMessage: "Timeout: no answer")],
            memory: memory)
        #expect(child.events.count == 1)
        #expect(parent.events.isEmpty, "the parent's error status names the child's exception")

        // Python's SDK: a qualified exception.type, the short name in the status description.
        let python = OTLPTraceMemory()
        let raised = map(
            [OTLPFixtures.span("db", id: 3, parent: 1, exceptions: [("__main__.Timeout", "no answer")])], memory: python)
        let described = map(
            [OTLPFixtures.span("GET /", id: 1, status: .error, statusMessage: "Timeout: no answer")], memory: python)
        #expect(raised.events.count == 1 && described.events.isEmpty)

        let reversed = OTLPTraceMemory()
        let root = map([OTLPFixtures.span("POST /pay", id: 1, exceptions: [("Timeout", "no answer")])], memory: reversed)
        let late = map([OTLPFixtures.span("db", id: 3, parent: 1, exceptions: [("Timeout", "no answer")])], memory: reversed)
        #expect(root.events.count == 1 && late.events.isEmpty)
    }

    @Test func siblingsFailingAloneAreTwoFailures() {
        // A retry: each attempt's span records its own exception; the attempts are siblings, not one another's
        // ancestors.
        let batch = map([
            OTLPFixtures.span("attempt 1", id: 2, parent: 1, exceptions: [("Timeout", "no answer")]),
            OTLPFixtures.span("attempt 2", id: 3, parent: 1, exceptions: [("Timeout", "no answer")]),
            OTLPFixtures.span("POST /pay", id: 1),
        ])
        #expect(batch.events.count == 2)
    }

    @Test func differentExceptionsOnOneChainAreDifferentFailures() {
        let batch = map([
            OTLPFixtures.span("db", id: 2, parent: 1, exceptions: [("Timeout", "no answer")]),
            OTLPFixtures.span("POST /pay", id: 1, exceptions: [("PaymentFailed", "could not charge")]),
            OTLPFixtures.span("POST /pay", id: 9, trace: Data(repeating: 7, count: 16), exceptions: [("Timeout", "no answer")]),
        ])
        #expect(batch.events.map(\.exceptionType) == ["Timeout", "PaymentFailed", "Timeout"])
    }

    @Test func spansWithIdsOfTheWrongLengthAreRejectedAndSaid() {
        var shortTrace = OTLPFixtures.span("a", id: 1, exceptions: [("E", "lost")])
        shortTrace.traceID = Data([1, 2, 3])
        var longSpan = OTLPFixtures.span("b", id: 2)
        longSpan.spanID = Data(repeating: 1, count: 9)
        var zero = OTLPFixtures.span("c", id: 3)
        zero.spanID = Data(repeating: 0, count: 8)
        var oddParent = OTLPFixtures.span("d", id: 4)
        oddParent.parentSpanID = Data([1])
        let batch = map([shortTrace, longSpan, zero, oddParent, OTLPFixtures.span("ok", id: 5)])
        #expect(batch.rejected == 4)
        #expect(batch.groups[0].records == 5)
        #expect(batch.groups[0].spans.map(\.name) == ["ok"])
        #expect(batch.events.isEmpty)
        #expect(batch.rejectionMessage == "spans with a parent span id of 1 bytes (8 or none expected)")
        let answer = OTLPExchange.traceResponse(batch)
        #expect(answer.partialSuccess.rejectedSpans == 4)
    }

    @Test func aParentThatIsTheSpanItselfOrMissingIsKept() {
        var own = OTLPFixtures.span("loop", id: 1)
        own.parentSpanID = OTLPFixtures.spanID(1)
        let batch = map([own, OTLPFixtures.span("orphan", id: 2, parent: 99)])
        #expect(batch.rejected == 0)
        #expect(batch.groups[0].spans.map(\.parentSpanID) == [0xab01, 0xab63])
    }

    @Test func aSpanWithTenThousandEventsYieldsAtMostTheLimitAndCountsTheRest() {
        var span = OTLPFixtures.span("storm", id: 1, exceptions: Array(repeating: ("Boom", "again"), count: 10))
        let exception = span.events[0]
        var noise = OTLPProtoTraceSpan.Event()
        noise.name = "cache.miss"
        span.events = Array(repeating: exception, count: 5_000) + Array(repeating: noise, count: 5_000)
        // Distinct messages, so none is the same failure as another.
        for index in 0..<5_000 {
            span.events[index].attributes[1].value.stringValue = "again #\(index)"
        }
        let batch = map([span])
        #expect(batch.events.count == OTLPTraceMapper.maximumExceptionEventsPerSpan)
        #expect(batch.groups[0].dropped == 5_000 - OTLPTraceMapper.maximumExceptionEventsPerSpan)
        #expect(batch.rejected == 0, "the span itself is accepted")
        #expect(batch.droppedMessage?.contains("5000 exception events") == true)
    }

    @Test func timestampsOfZeroAndOfTheYear2200AreKeptAsSent() throws {
        var zero = OTLPFixtures.span("zero", id: 1, exceptions: [("E", "at zero")])
        zero.startTimeUnixNano = 0
        zero.endTimeUnixNano = 0
        zero.events[0].timeUnixNano = 0
        var future = OTLPFixtures.span("future", id: 2, exceptions: [("E", "in 2200")])
        let year2200: UInt64 = 7_258_118_400_000_000_000
        future.startTimeUnixNano = year2200
        future.endTimeUnixNano = year2200 + 1_000
        future.events[0].timeUnixNano = year2200 + 500
        let batch = map([zero, future])
        #expect(batch.events.count == 2)
        #expect(batch.events[0].time == received, "no time sent: the arrival time stands in")
        #expect(batch.events[1].time == OTLPLogMapper.date(unixNanos: year2200 + 500))
        #expect(batch.groups[0].spans.map(\.startUnixNano) == [0, year2200])
    }

    @Test func theMemoryForgetsTheLeastRecentlyHeardTracesPastItsLimit() {
        let memory = OTLPTraceMemory()
        func failure(_ trace: Int) -> OTLPTraceMemory.SpanFailures {
            OTLPTraceMemory.SpanFailures(
                traceID: "t\(trace)", spanID: 1, parentSpanID: nil,
                failures: [.init(origin: .exception, spanID: 1, type: "E", message: "m")])
        }
        #expect(memory.count([failure(0)]) == [[true]])
        #expect(memory.count([failure(0)]) == [[false]])
        for trace in 1...OTLPTraceMemory.maximumTraces { _ = memory.count([failure(trace)]) }
        #expect(memory.count([failure(0)]) == [[true]], "trace 0 was forgotten: its failure counts again")
        #expect(memory.count([failure(OTLPTraceMemory.maximumTraces)]) == [[false]], "the newest is remembered")
    }

    @Test func aCycleOfParentsEndsTheAncestorWalk() {
        let links: [UInt64: UInt64] = [1: 2, 2: 3, 3: 1]
        #expect(OTLPTraceMemory.related(1, 3, links))
        #expect(!OTLPTraceMemory.related(1, 4, links))
    }
}
