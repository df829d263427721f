import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// What the fuzz targets (Fuzz/, docs/fuzzing.md) found, kept with the input that showed it.
struct FuzzFindingsTests {
    /// FuzzWireDecoder and FuzzRFC3339: an offset carried a time out of the four-digit years. It was read, then
    /// written with a five-digit or negative year that no reader takes back, so a recording of it would not replay.
    @Test(arguments: [
        // FuzzWireDecoder's crash: 10000-01-01T23:59:00.5Z once in UTC.
        "9999-12-31T23:59:60.5-23:59",
        // FuzzRFC3339's crash, crash-9028b9298cf15ae8226f36c592d98017142d92d2: year -1 once in UTC.
        "0000-01-01T00:00:00+23:59",
        "9999-12-31T23:59:60Z", "0000-01-01T00:00:00+00:01", "0000-01-01T00:00:00.5+00:01",
    ])
    func timesOutsideTheFourDigitYearsAreMalformed(_ time: String) throws {
        #expect(RFC3339.parse(time) == nil)
        // Not read as a time, so never written back with such a year: the line is kept at the time it was read,
        // marked with the time as sent (issue 34).
        let line = #"{"v":1,"kind":"log","time":"\#(time)","body":"x"}"#
        let read = Date(timeIntervalSince1970: 1_800_000_000)
        let event = try WireDecoder().decode(Array(line.utf8), readAt: read)
        #expect(event.time == read && event.attributes[WireEvent.unreadableTimeAttribute] == time)
        #expect(try WireDecoder().decode(try WireEncoder().encode(event)) == event)
    }

    @Test(arguments: [
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.9999999Z",
        "9999-12-31T00:00:00-23:59",
    ])
    func theEdgesOfTheFourDigitYearsRoundTrip(_ time: String) throws {
        let date = try #require(RFC3339.parse(time))
        let event = WireEvent(kind: .log, time: date, body: "x")
        let again = try WireDecoder().decode(try WireEncoder().encode(event))
        #expect(abs(again.time.timeIntervalSince(date)) < 0.001)
    }

    /// The writer refuses what it cannot write readably, as it refuses a negative `code.lineno`.
    /// (Seconds since 1970 rather than dates as arguments: Foundation's `Date.description` traps on NaN.)
    @Test(arguments: [253_402_300_800, -62_167_219_201, .nan, 1e300] as [TimeInterval])
    func theWriterRefusesTimesOutsideTheFourDigitYears(_ seconds: TimeInterval) {
        let event = WireEvent(kind: .log, time: Date(timeIntervalSince1970: seconds), body: "x")
        #expect(throws: WireError.invalidField("time")) { try WireEncoder().encode(event) }
        #expect(throws: WireError.invalidField("time")) { try JSONEncoder().encode(event) }
    }
}

extension FuzzFindingsTests {
    /// FuzzWireDecoder, crash-2c3ccebe55c986425e053e89c60867a44848cf0c: a metric value beyond a Double's range was
    /// read as an infinite sample, which no writer writes back (JSON has no infinity) and which turns every sum it
    /// joins into infinity or NaN. It is malformed, as Foundation's JSONDecoder has it.
    @Test(arguments: ["-2.7976931348623157e308", "1e999", "-1E+400"])
    func metricValuesBeyondADoubleAreMalformed(_ value: String) {
        let line =
            #"{"v":1,"kind":"metric","time":"2026-11-22T00:40:00.999999999Z","metric.name":"m","metric.value":"#
            + value + #","metric.kind":"counter"}"#
        #expect(throws: WireError.invalidField("metric.value")) { try WireDecoder().decode(Array(line.utf8)) }
        #expect(throws: (any Error).self) { try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8)) }
    }

    @Test func theLargestFiniteMetricValueStillReads() throws {
        let line =
            #"{"v":1,"kind":"metric","time":"2026-11-22T00:40:00Z","metric.name":"m","#
            + #""metric.value":-1.7976931348623157e308}"#
        let event = try WireDecoder().decode(Array(line.utf8))
        #expect(event.metricValue == -Double.greatestFiniteMagnitude)
    }
}

extension FuzzFindingsTests {
    /// FuzzOTLP, crash-1ef4df7efe94437d292045484d7ae6138c6cdd42: a log record with attributes and no body became a
    /// log event without a body, which the writer wrote and no reader takes back (`missing field body`), so a
    /// recording of it would not replay. It gets an empty body; an error record keeps none.
    @Test func anOTLPLogRecordWithOnlyAttributesIsWrittenReadably() throws {
        let json = #"""
            {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},
            "scopeLogs":[{"scope":{"name":"payments"},"logRecords":[{"severityNumber":13,
            "attributes":[{"key":"map","value":{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}}]},
            {"attributes":[{"key":"exception.message","value":{"stringValue":"bad"}}]}]}]}]}
            """#
        let decoder = OTLPRequestDecoder(now: { Date(timeIntervalSince1970: 1_795_000_000) })
        let answer = decoder.decode(path: "/v1/logs", contentType: "application/json", body: Array(json.utf8))
        #expect(answer.status == 200 && answer.events.count == 2)
        let log = try #require(answer.events.first)
        #expect(log.kind == .log && log.body == "" && log.attributes["map"] == #"{"k":"v"}"#)
        #expect(answer.events.last?.kind == .error && answer.events.last?.body == nil)
        for event in answer.events {
            #expect(try WireDecoder().decode(try WireEncoder().encode(event)) == event)
        }
    }
}

extension FuzzFindingsTests {
    /// FuzzOTLP, crash-2bffd7c11fc857c79ef45b871932b811518c8dd4: a histogram point whose bucket counts add up past
    /// `UInt64.max` trapped on the sum (arithmetic overflow), so any sender could stop the dashboard with one
    /// request. The sum saturates; a point that large is over the budget, or sampled like any large point.
    @Test(arguments: [true, false])
    func histogramCountsThatOverflowWhenAddedAreNotACrash(_ cumulative: Bool) throws {
        var histogram = OTLPFixtures.histogram(
            "latency", counts: [1, 1, 1], bounds: [10, 100], cumulative: cumulative)
        histogram.histogram.dataPoints[0].bucketCounts = [.max, .max, 2]
        var exponential = OTLPProtoMetric()
        exponential.name = "size"
        var point = OTLPProtoExponentialHistogramDataPoint()
        point.scale = 2
        point.zeroCount = .max
        point.positive.bucketCounts = [.max, 1]
        point.negative.bucketCounts = [.max]
        exponential.exponentialHistogram.dataPoints = [point]
        exponential.exponentialHistogram.aggregationTemporality = cumulative ? .cumulative : .delta
        let body = try OTLPFixtures.metrics([histogram, exponential]).serializedBytes() as [UInt8]
        let decoder = OTLPRequestDecoder(now: { Date(timeIntervalSince1970: 1_795_000_000) })
        for _ in 0..<2 {
            let answer = decoder.decode(path: "/v1/metrics", contentType: "application/x-protobuf", body: body)
            #expect(answer.status == 200)
        }
        #expect(OTLPMetricMapper.total([.max, 1]) == .max)
        #expect(OTLPMetricMapper.total([2, 3]) == 5)
    }
}

extension FuzzFindingsTests {
    /// FuzzOTLP, crash-a77dbfaff432d9e363eda6d04dc4b28603719998: a histogram's bounds are the sender's doubles, and
    /// a NaN bound (or an infinite min or max, or two huge bounds) made a NaN or infinite observation, which the
    /// writer refuses (a recording drops it) and which poisons the pane's percentiles. Such buckets are left out,
    /// as exponential ones were; a sum whose running total or increment overflows a Double is rejected.
    @Test func nonFiniteHistogramValuesAndOverflowingSumsMakeNoEvent() throws {
        var histogram = OTLPFixtures.histogram(
            "latency", counts: [1, 2, 3, 4], bounds: [.nan, 1e308, .greatestFiniteMagnitude], cumulative: false,
            min: -.infinity, max: .infinity)
        histogram.histogram.dataPoints[0].explicitBounds = [.nan, 1e308, .greatestFiniteMagnitude]
        var upDown = OTLPFixtures.sum("queue", 0, cumulative: false, monotonic: false)
        upDown.sum.dataPoints[0].asDouble = .greatestFiniteMagnitude
        upDown.sum.dataPoints.append(upDown.sum.dataPoints[0])
        var counter = OTLPFixtures.sum("bytes", 0, cumulative: true, monotonic: true)
        counter.sum.dataPoints[0].asDouble = -.greatestFiniteMagnitude
        var later = counter.sum.dataPoints[0]
        later.asDouble = .greatestFiniteMagnitude
        counter.sum.dataPoints.append(later)
        let body = try OTLPFixtures.metrics([histogram, upDown, counter]).serializedBytes() as [UInt8]
        let decoder = OTLPRequestDecoder(now: { Date(timeIntervalSince1970: 1_795_000_000) })
        let answer = decoder.decode(path: "/v1/metrics", contentType: "application/x-protobuf", body: body)
        #expect(answer.status == 200)
        #expect(answer.rejected == 2)
        #expect(!answer.events.isEmpty)
        for event in answer.events {
            #expect(event.metricValue?.isFinite == true)
            #expect(throws: Never.self) { try WireEncoder().encode(event) }
        }
    }
}
