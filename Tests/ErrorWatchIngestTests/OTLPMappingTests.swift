import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// The mapping from OTLP onto wire events, without a socket (docs/otlp.md's table).
struct OTLPMappingTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anExceptionRecordIsAnErrorWithItsStackTraceTraceIdsAndResource() throws {
        let request = OTLPFixtures.logs([
            OTLPFixtures.record(body: "charge failed", severity: .error2, exception: ("stripe.CardError", "declined"))
        ])
        let batch = OTLPLogMapper.map(request, receivedAt: now)
        let event = try #require(batch.events.first)
        #expect(event.kind == .error)
        #expect(event.exceptionType == "stripe.CardError")
        #expect(event.exceptionMessage == "declined")
        #expect(event.exceptionStacktrace == "Traceback (most recent call last):\n  File \"app.py\", line 3")
        #expect(event.body == "charge failed")
        #expect(event.severity == .error)
        #expect(event.serviceName == "shop" && event.pid == 4242 && event.hostName == "web-1")
        #expect(event.source == "app")
        #expect(event.attributes["service.instance.id"] == "i-1")
        #expect(event.attributes["http.route"] == "/checkout")
        #expect(event.traceID == "000102030405060708090a0b0c0d0e0f")
        #expect(event.spanID == "a0a1a2a3a4a5a6a7")
        #expect(event.attributes["exception.type"] == nil)
        #expect(abs(event.time.timeIntervalSince1970 - 1_700_000_000.123456) < 1e-6)
        // It becomes a RemoteError like any wire error.
        let remote = try #require(RemoteError(event))
        #expect(remote.typeName == "stripe.CardError" && remote.stackTrace != nil)
    }

    @Test func aMessageWithoutATypeIsStillAnError() throws {
        var record = OTLPFixtures.record(body: "x")
        record.attributes = [OTLPFixtures.string("exception.message", "only a message")]
        let event = try #require(OTLPLogMapper.map(OTLPFixtures.logs([record]), receivedAt: now).events.first)
        #expect(event.kind == .error && event.exceptionType == OTLPLogMapper.unnamedExceptionType)
    }

    @Test func otherRecordsAreLogLinesWithCompactBodies() throws {
        var structured = OTLPFixtures.record(body: "")
        var list = OTLPProtoKeyValueList()
        var inner = OTLPProtoAnyValue()
        inner.arrayValue.values = [OTLPFixtures.int("", 1).value, OTLPFixtures.string("", "a\"b").value]
        var pair = OTLPProtoKeyValue()
        pair.key = "items"
        pair.value = inner
        list.values = [pair, OTLPFixtures.int("n", 2)]
        structured.body.kvlistValue = list
        let events = OTLPLogMapper.map(
            OTLPFixtures.logs([structured, OTLPFixtures.record(body: "plain")]), receivedAt: now
        )
        .events
        #expect(events.map(\.kind) == [.log, .log])
        #expect(events[0].body == #"{"items":[1,"a\"b"],"n":2}"#)
        #expect(events[1].body == "plain")
    }

    @Test(arguments: [
        (1, "", ErrorSeverity.debug), (5, "", .debug), (9, "", .info), (13, "", .warning), (17, "", .error),
        (21, "", .critical), (0, "WARNING", .warning), (0, "fatal", .critical), (0, "notice", .notice),
    ])
    func severityComesFromTheNumberThenTheText(number: Int, text: String, expected: ErrorSeverity) {
        #expect(OTLPLogMapper.severity(number: number, text: text) == expected)
    }

    @Test func unknownSeverityIsLeftToTheKindsDefault() {
        #expect(OTLPLogMapper.severity(number: 0, text: "") == nil)
    }

    @Test func anEmptyRecordIsRejectedAndCounted() {
        let batch = OTLPLogMapper.map(
            OTLPFixtures.logs([OTLPProtoLogRecord(), OTLPFixtures.record(body: "ok")]), receivedAt: now)
        #expect(batch.events.count == 1)
        #expect(batch.rejected == 1)
        #expect(batch.rejectionMessage != nil)
    }

    @Test func aRecordWithoutTimeGetsTheObservedTimeOrTheArrival() throws {
        var record = OTLPFixtures.record(body: "t")
        record.timeUnixNano = 0
        record.observedTimeUnixNano = 2_000_000_000
        let observed = try #require(OTLPLogMapper.map(OTLPFixtures.logs([record]), receivedAt: now).events.first)
        #expect(observed.time == Date(timeIntervalSince1970: 2))
        record.observedTimeUnixNano = 0
        let arrival = try #require(OTLPLogMapper.map(OTLPFixtures.logs([record]), receivedAt: now).events.first)
        #expect(arrival.time == now)
    }

    @Test func cumulativeSumsBecomeIncrementsPerStreamAndResetsStartOver() {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        func values(_ value: Int64, start: UInt64 = 1, service: String = "shop") -> [Double?] {
            mapper.map(
                OTLPFixtures.metrics(
                    [OTLPFixtures.sum("orders", value, start: start)], resource: OTLPFixtures.resource(service: service)
                )
            )
            .events.map(\.metricValue)
        }
        #expect(values(10) == [10])
        #expect(values(15) == [5])
        #expect(values(15) == [])
        #expect(values(3) == [3])  // below the last value: the producer restarted
        #expect(values(7, start: 99) == [7])  // a new start time: a new count
        #expect(values(4, service: "other") == [4])  // another resource, another stream
    }

    @Test func deltaSumsAreIncrementsAndUpDownCountersAreGauges() {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        let delta = mapper.map(OTLPFixtures.metrics([OTLPFixtures.sum("sent", 4, cumulative: false)])).events
        #expect(delta.map(\.metricValue) == [4] && delta.map(\.metricKind) == [.counter])
        let upDown = mapper.map(OTLPFixtures.metrics([OTLPFixtures.sum("queue", -2, monotonic: false)])).events
        #expect(upDown.map(\.metricValue) == [-2] && upDown.map(\.metricKind) == [.gauge])
        _ = mapper.map(OTLPFixtures.metrics([OTLPFixtures.sum("inflight", 3, cumulative: false, monotonic: false)]))
        let running = mapper.map(
            OTLPFixtures.metrics([OTLPFixtures.sum("inflight", -1, cumulative: false, monotonic: false)]))
        #expect(running.events.map(\.metricValue) == [2])
    }

    @Test func gaugesCarryValueUnitAndResource() throws {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        let event = try #require(mapper.map(OTLPFixtures.metrics([OTLPFixtures.gauge("memory", 12.5)])).events.first)
        #expect(event.kind == .metric && event.metricKind == .gauge && event.metricValue == 12.5)
        #expect(event.metricUnit == "By" && event.serviceName == "shop" && event.source == "meter")
    }

    @Test func histogramsBecomeObservationsOfTheirNewCounts() {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        func values(_ counts: [UInt64]) -> [Double] {
            mapper.map(
                OTLPFixtures.metrics([
                    OTLPFixtures.histogram("latency", counts: counts, bounds: [10, 100], min: 2, max: 300)
                ])
            )
            .events.compactMap(\.metricValue)
        }
        // (-inf,10] at min 2; (10,100] at 55; (100,+inf) at max 300.
        #expect(values([1, 2, 1]) == [2, 55, 55, 300])
        // Cumulative: only the growth.
        #expect(values([1, 3, 1]) == [55])
    }

    @Test func largeHistogramCountsAreScaledToTheCap() {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        let events = mapper.map(
            OTLPFixtures.metrics([
                OTLPFixtures.histogram("big", counts: [50_000, 50_000], bounds: [1], cumulative: false, max: 3)
            ])
        )
        .events
        #expect(events.count == OTLPHistogramSampler.maximumPerPoint)
        #expect(events.filter { $0.metricValue == 1 }.count == OTLPHistogramSampler.maximumPerPoint / 2)
        #expect(events.filter { $0.metricValue == 3 }.count == OTLPHistogramSampler.maximumPerPoint / 2)
    }

    @Test func exponentialHistogramsUseTheirBuckets() {
        var point = OTLPProtoExponentialHistogramDataPoint()
        point.scale = 0  // base 2: bucket i is (2^i, 2^(i+1)]
        point.zeroCount = 1
        point.positive.offset = 3
        point.positive.bucketCounts = [2]  // (8, 16]
        point.negative.offset = 0
        point.negative.bucketCounts = [1]  // [-2, -1)
        var metric = OTLPProtoMetric()
        metric.name = "size"
        metric.exponentialHistogram.dataPoints = [point]
        metric.exponentialHistogram.aggregationTemporality = .delta
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now)
        let values = mapper.map(OTLPFixtures.metrics([metric])).events.compactMap(\.metricValue)
        #expect(values.count == 4)
        #expect(abs(values[0] + pow(2, 0.5)) < 1e-9)
        #expect(values[1] == 0)
        #expect(abs(values[2] - pow(2, 3.5)) < 1e-9 && values[3] == values[2])
    }

    @Test func summariesAndMismatchedHistogramsAreRejected() {
        var summary = OTLPProtoMetric()
        summary.name = "rpc"
        summary.summary.dataPoints = [OTLPProtoSummaryDataPoint(), OTLPProtoSummaryDataPoint()]
        let broken = OTLPFixtures.histogram("bad", counts: [1, 2], bounds: [1, 2, 3])
        let batch = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: now).map(
            OTLPFixtures.metrics([summary, broken]))
        #expect(batch.events.isEmpty)
        #expect(batch.rejected == 3)
    }

    @Test func hexIdsInJSONAreRewrittenAndStringsAreLeftAlone() {
        let body = Array(#"{"traceId":"0aff","body":{"stringValue":"\"traceId\":\"abcd\""},"spanId" : "zz"}"#.utf8)
        let rewritten = String(decoding: OTLPJSON.rewritingHexIDs(body), as: UTF8.self)
        #expect(rewritten == #"{"traceId":"Cv8=","body":{"stringValue":"\"traceId\":\"abcd\""},"spanId" : "zz"}"#)
    }

    @Test func endpointsParse() throws {
        #expect(try OTLPEndpoint(parsing: "otlp:4318") == OTLPEndpoint(host: "127.0.0.1", port: 4318))
        #expect(try OTLPEndpoint(parsing: "otlp:0.0.0.0:4318").description == "otlp:0.0.0.0:4318")
        #expect(try OTLPEndpoint(parsing: "otlp:[::1]:4318").url == "http://[::1]:4318")
        #expect(throws: WireTransportError.self) { try OTLPEndpoint(parsing: "otlp:") }
        #expect(throws: WireTransportError.self) { try OTLPEndpoint(parsing: "tcp:4318") }
        #expect(throws: WireTransportError.invalidEndpoint("otlp:http")) { try OTLPEndpoint(parsing: "otlp:http") }
        #expect("\(WireTransportError.invalidEndpoint("otlp:x"))".contains("expected otlp:PORT or otlp:HOST:PORT"))
    }

    @Test func listenValuesAreSortedByTheirScheme() throws {
        #expect(try ListenEndpoint(parsing: "otlp-grpc:4317") == .otlp(OTLPEndpoint(port: 4317, transport: .grpc)))
        #expect(try ListenEndpoint(parsing: "otlp:4318") == .otlp(OTLPEndpoint(port: 4318)))
        #expect(try ListenEndpoint(parsing: "sentry:43210") == .sentry(SentryEndpoint(port: 43210)))
        #expect(try ListenEndpoint(parsing: "unix:/tmp/x.sock") == .lines(.unix(path: "/tmp/x.sock")))
        #expect(try ListenEndpoint(parsing: "sentry:0.0.0.0:9").description == "sentry:0.0.0.0:9")
        // A known scheme with a bad address is that scheme's error, never a line feed's.
        #expect(throws: WireTransportError.invalidEndpoint("sentry:x")) { try ListenEndpoint(parsing: "sentry:x") }
        #expect(throws: WireTransportError.self) { try ListenEndpoint(parsing: "http://x") }
    }

    @Test func inflatingStopsAtTheLimit() throws {
        let bomb = gzip([UInt8](repeating: 7, count: 1_000_000))
        #expect(throws: Inflater.Failure.tooLarge(limit: 1_000)) { try Inflater.inflate(bomb, limit: 1_000) }
        #expect(try Inflater.inflate(bomb, limit: 1_000_000).count == 1_000_000)
        #expect(try Inflater.inflate(gzip([1, 2]) + gzip([3]), limit: 10) == [1, 2, 3])
    }
}
