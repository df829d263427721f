import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// Kind `status` and `metric.kind`: added within `v: 1`, so old lines must read exactly as before.
struct StatusAndMetricKindTests {
    static let time = WireFormatTests.time
    static let encoder = WireEncoder(source: SourceInfo(serviceName: "shop", pid: 4242, host: "build-7"))

    static let reconciler = encoder.statusEvent(
        name: "reconciler", state: "running", health: .degraded, detail: "pass 7 of 9", time: time)

    static let metrics = WireMetricKind.allCases.map { kind in
        encoder.metricEvent(
            name: "http.server.duration", value: 12.5, kind: kind, unit: "ms", dimensions: ["route": "/cart"],
            time: time)
    }

    /// Both decoders on one line: the fast scanner (what listeners use) and the `Codable` path.
    static func decodeBothWays(_ line: String) -> (
        scanned: Result<WireEvent, WireError>, coded: Result<WireEvent, any Error>
    ) {
        let scanned = Result { () throws(WireError) in try WireDecoder().decode(Array(line.utf8)) }
        let coded = Result { try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8)) }
        return (scanned, coded)
    }

    @Test func statusEventRoundTripsThroughOneLine() throws {
        let event = Self.reconciler
        #expect(
            event.kind == .status && event.serviceName == "shop" && event.pid == 4242 && event.hostName == "build-7")
        #expect(event.statusName == "reconciler" && event.statusState == "running")
        #expect(event.statusHealth == .degraded && event.statusDetail == "pass 7 of 9")
        let line = try WireEncoder().encode(event)
        #expect(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")))
        #expect(try WireDecoder().decode(line) == event)
        let text = String(decoding: line, as: UTF8.self)
        for member in [
            #""kind":"status""#, #""status.name":"reconciler""#, #""status.state":"running""#,
            #""status.health":"degraded""#, #""status.detail":"pass 7 of 9""#,
        ] {
            #expect(text.contains(member), "missing \(member) in \(text)")
        }
    }

    @Test(arguments: WireMetricKind.allCases)
    func eachMetricKindRoundTrips(kind: WireMetricKind) throws {
        let event = try #require(Self.metrics.first { $0.metricKind == kind })
        #expect(event.metricName == "http.server.duration" && event.metricValue == 12.5 && event.metricUnit == "ms")
        #expect(event.attributes == ["route": "/cart"] && event.serviceName == "shop")
        let line = try WireEncoder().encode(event)
        #expect(String(decoding: line, as: UTF8.self).contains(#""metric.kind":"\#(kind.rawValue)""#))
        let decoded = try WireDecoder().decode(line)
        #expect(decoded == event)
        #expect(decoded.effectiveMetricKind == kind)
    }

    @Test func theDocumentedStatusLineDecodes() throws {
        let line =
            #"{"v":1,"kind":"status","time":"2026-11-22T00:40:00Z","service.name":"shop","#
            + #""status.name":"reconciler","status.state":"running","status.health":"ok","#
            + #""status.detail":"pass 7 of 9"}"#
        let expected = WireEvent(
            kind: .status, time: try #require(RFC3339.parse("2026-11-22T00:40:00Z")), serviceName: "shop",
            statusName: "reconciler", statusState: "running", statusHealth: .ok, statusDetail: "pass 7 of 9")
        let (scanned, coded) = Self.decodeBothWays(line)
        #expect(try scanned.get() == expected)
        #expect(try coded.get() == expected)
    }

    @Test func absentHealthAndKindReadAsTheirDefaultsButStayAbsent() throws {
        let status = try WireDecoder().decode(
            Array(#"{"v":1,"kind":"status","time":"2026-11-22T00:40:00Z","status.name":"db","status.state":"up"}"#.utf8)
        )
        #expect(status.statusHealth == nil && status.effectiveStatusHealth == .ok && status.statusDetail == nil)
        #expect(!String(decoding: try WireEncoder().encode(status), as: UTF8.self).contains("status.health"))
        let metric = try WireDecoder().decode(
            Array(#"{"v":1,"kind":"metric","time":"2026-11-22T00:40:00Z","metric.name":"q","metric.value":3}"#.utf8))
        #expect(metric.metricKind == nil && metric.effectiveMetricKind == .gauge)
        #expect(!String(decoding: try WireEncoder().encode(metric), as: UTF8.self).contains("metric.kind"))
    }

    @Test func healthAndMetricKindAreReadCaseInsensitivelyAndWrittenInLowerCase() throws {
        let line =
            #"{"v":1,"kind":"status","time":"2026-11-22T00:40:00Z","status.name":"db","status.state":"down","#
            + #""status.health":"FAILING","metric.kind":"Counter"}"#
        let (scanned, coded) = Self.decodeBothWays(line)
        let event = try scanned.get()
        #expect(event.statusHealth == .failing && event.metricKind == .counter)
        #expect(try coded.get() == event)
        let written = String(decoding: try WireEncoder().encode(event), as: UTF8.self)
        #expect(written.contains(#""status.health":"failing""#) && written.contains(#""metric.kind":"counter""#))
    }

    @Test(arguments: [
        (#""kind":"status","status.state":"running"}"#, WireError.missingField("status.name")),
        (#""kind":"status","status.name":"reconciler"}"#, WireError.missingField("status.state")),
        (
            #""kind":"status","status.name":"r","status.state":"s","status.health":"sick"}"#,
            .invalidField("status.health")
        ),
        (#""kind":"status","status.name":"r","status.state":"s","status.health":3}"#, .invalidField("status.health")),
        (#""kind":"status","status.name":7,"status.state":"s"}"#, .invalidField("status.name")),
        (#""kind":"status","status.name":"r","status.state":"s","status.detail":[]}"#, .invalidField("status.detail")),
        (#""kind":"metric","metric.name":"m","metric.value":1,"metric.kind":"summary"}"#, .invalidField("metric.kind")),
        (#""kind":"metric","metric.name":"m","metric.value":1,"metric.kind":true}"#, .invalidField("metric.kind")),
        (#""kind":"status","status.name":null,"status.state":"s"}"#, .missingField("status.name")),
    ])
    func badStatusAndMetricKindLinesNameTheirField(tail: String, expected: WireError) {
        let line = #"{"v":1,"time":"2026-11-22T00:40:00Z","# + tail
        let (scanned, coded) = Self.decodeBothWays(line)
        #expect(throws: expected) { try scanned.get() }
        #expect(throws: expected) { try coded.get() }
    }

    @Test func fastWriterOutputDecodesWithJSONDecoder() throws {
        for event in [Self.reconciler] + Self.metrics {
            var line = try WireEncoder().encode(event)
            line.removeLast()
            #expect(try JSONDecoder().decode(WireEvent.self, from: Data(line)) == event)
        }
    }

    @Test func jsonEncoderOutputDecodesWithTheFastReader() throws {
        for event in [Self.reconciler] + Self.metrics {
            let data = try JSONEncoder().encode(event)
            #expect(try WireDecoder().decode(Array(data)) == event)
        }
    }

    /// Lines written before `status` and `metric.kind` existed: the same bytes out, the same event in.
    @Test func oldLinesDecodeAndEncodeExactlyAsBefore() throws {
        let error =
            #"{"v":1,"kind":"error","time":"2026-11-22T00:40:00.123456Z","service.name":"shop","process.pid":4242,"#
            + #""host.name":"build-7","source":"checkout.pay","exception.type":"Shop.PaymentError","#
            + #""exception.message":"gateway said 503","message.user":"Try again soon.","error.code":"N-503","#
            + #""error.category":"transient","severity":"warning","origin":"background","attempt":2,"sequence":17,"#
            + #""attributes":{"order":"A-19"}}"#
        let metric =
            #"{"v":1,"kind":"metric","time":"2026-11-22T00:40:00.123456Z","metric.name":"http.latency","#
            + #""metric.value":12.5,"metric.unit":"ms"}"#
        let log = #"{"v":1,"kind":"log","time":"2026-11-22T00:40:00.123456Z","severity":"notice","body":"GET /cart"}"#
        let expected = [
            WireFormatTests.checkoutFailure,
            WireEvent(kind: .metric, time: Self.time, metricName: "http.latency", metricValue: 12.5, metricUnit: "ms"),
            WireEvent(kind: .log, time: Self.time, severity: .notice, body: "GET /cart"),
        ]
        for (line, event) in zip([error, metric, log], expected) {
            let (scanned, coded) = Self.decodeBothWays(line)
            let decoded = try scanned.get()
            #expect(decoded == event)
            #expect(try coded.get() == event)
            #expect(decoded.metricKind == nil && decoded.statusName == nil && decoded.statusState == nil)
            #expect(decoded.statusHealth == nil && decoded.statusDetail == nil)
            #expect(String(decoding: try WireEncoder().encode(event).dropLast(), as: UTF8.self) == line)
        }
    }

    @Test func aStatusIsNotARemoteError() {
        #expect(RemoteError(Self.reconciler) == nil)
        #expect(Self.reconciler.effectiveSeverity == .info)
    }
}
