import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

struct WireFormatTests {
    static let time = RFC3339.parse("2026-11-22T00:40:00.123456Z")!

    static let checkoutFailure = WireEvent(
        kind: .error, time: time, serviceName: "shop", pid: 4242, hostName: "build-7", source: "checkout.pay",
        exceptionType: "Shop.PaymentError", exceptionMessage: "gateway said 503", userMessage: "Try again soon.",
        code: "N-503", category: .transient, severity: .warning, origin: .background, attempt: 2, sequence: 17,
        attributes: ["order": "A-19"])

    @Test func errorEventRoundTripsThroughOneLine() throws {
        let line = try WireEncoder().encode(Self.checkoutFailure)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(try WireDecoder().decode(line) == Self.checkoutFailure)
    }

    @Test func logAndMetricEventsRoundTrip() throws {
        let log = WireEvent(kind: .log, time: Self.time, source: "shop.http", severity: .notice, body: "GET /cart 200")
        let metric = WireEvent(
            kind: .metric, time: Self.time, metricName: "http.latency", metricValue: 12.5, metricUnit: "ms")
        for event in [log, metric] {
            #expect(try WireDecoder().decode(WireEncoder().encode(event)) == event)
        }
    }

    @Test func keysAreTheDocumentedOpenTelemetryNames() throws {
        let line = String(decoding: try WireEncoder().encode(Self.checkoutFailure), as: UTF8.self)
        for key in [
            "\"v\":1", "\"kind\":\"error\"", "\"time\":\"2026-11-22T00:40:00.123456Z\"", "\"service.name\":\"shop\"",
            "\"process.pid\":4242", "\"host.name\":\"build-7\"", "\"exception.type\":\"Shop.PaymentError\"",
            "\"exception.message\":\"gateway said 503\"", "\"message.user\":\"Try again soon.\"",
            "\"error.code\":\"N-503\"", "\"error.category\":\"transient\"", "\"severity\":\"warning\"",
            "\"origin\":\"background\"", "\"attempt\":2", "\"sequence\":17",
        ] {
            #expect(line.contains(key), "missing \(key) in \(line)")
        }
    }

    @Test func openTelemetrySeverityTextAndUnknownFieldsAreAccepted() throws {
        let line =
            #"{"v":1,"kind":"log","time":"2026-11-22T01:40:00+01:00","severity_text":"WARN","body":"slow","#
            + #""trace_id":"abc","extra":{"x":[1]}}"#
        let event = try WireDecoder().decode(Array(line.utf8))
        #expect(event.severity == .warning)
        #expect(event.time == RFC3339.parse("2026-11-22T00:40:00Z"))
        #expect(ErrorSeverity(wireName: "FATAL") == .critical)
        #expect(ErrorSeverity(wireName: "Info2") == .info)
        #expect(ErrorSeverity(wireName: "loud") == nil)
    }

    @Test(arguments: [
        (#"{"v":1,"kind":"error""#, "malformed"),
        (#"[1,2,3]"#, "notAnObject"),
        (#""just a string""#, "notAnObject"),
        (#"{"v":2,"kind":"error","time":"x"}"#, "version 2"),
        (#"{"kind":"error","time":"2026-11-22T00:40:00Z","exception.type":"E"}"#, "missing v"),
        (#"{"v":1,"kind":"error","time":"2026-11-22T00:40:00Z"}"#, "missing exception.type"),
        // A time that is text or a number but no time is kept (UnreadableTimeTests); one of another type is not.
        (#"{"v":1,"kind":"error","time":true,"exception.type":"E"}"#, "invalid time"),
        (
            // A code is any string, kept as sent; a number is not a string.
            #"{"v":1,"kind":"error","time":"2026-11-22T00:40:00Z","exception.type":"E","error.code":503}"#,
            "invalid code"
        ),
        (#"{"v":1,"kind":"alert","time":"2026-11-22T00:40:00Z"}"#, "invalid kind"),
        (#"{"v":"one","kind":"error"}"#, "invalid v"),
    ])
    func eachBadLineHasItsOwnError(line: String, expected: String) {
        let result = Result { () throws(WireError) in try WireDecoder().decode(Array(line.utf8)) }
        let error: WireError? = if case .failure(let error) = result { error } else { nil }
        switch expected {
        case "malformed": if case .malformedJSON = error {} else { Issue.record("\(String(describing: error))") }
        case "notAnObject": #expect(error == .notAnObject)
        case "version 2": #expect(error == .unsupportedVersion(2))
        case "missing v": #expect(error == .missingField("v"))
        case "missing exception.type": #expect(error == .missingField("exception.type"))
        case "invalid time": #expect(error == .invalidField("time"))
        case "invalid code": #expect(error == .invalidField("error.code"))
        case "invalid kind": #expect(error == .invalidField("kind"))
        default: #expect(error == .invalidField("v"))
        }
    }

    @Test func invalidUTF8AndOverlongLinesAreRejected() {
        let badUTF8: [UInt8] = Array(#"{"v":1,"body":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: WireError.invalidUTF8) { try WireDecoder().decode(badUTF8) }
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 70_000)
        #expect(throws: WireError.lineTooLong(byteCount: 70_001)) { try WireDecoder().decode(long) }
    }

    @Test func errorEventOfAStreamCarriesItsClassificationAndContext() throws {
        let event = ErrorEvent(
            error: RemoteError(typeName: "Shop.PaymentError", message: "503", code: "N-503", category: .transient),
            sequence: 9, timestamp: Self.time,
            context: ErrorContext(source: "checkout", severity: .error, origin: .user, attempt: 3, metadata: ["k": "v"])
        )
        let encoder = WireEncoder(source: SourceInfo(serviceName: "shop", pid: 7, host: "h"))
        let wire = try WireDecoder().decode(encoder.encode(event))
        #expect(wire.exceptionType == "Shop.PaymentError")
        #expect(wire.code == "N-503" && wire.category == .transient && wire.severity == .error)
        #expect(wire.source == "checkout" && wire.attempt == 3 && wire.sequence == 9 && wire.attributes == ["k": "v"])
        #expect(wire.serviceName == "shop" && wire.pid == 7 && wire.hostName == "h")
    }

    @Test func remoteErrorClassifiesLikeTheProducerSaid() throws {
        let remote = try #require(RemoteError(Self.checkoutFailure))
        let classification = Classification(of: remote)
        #expect(classification.code == "N-503")
        #expect(classification.category == .transient)
        #expect(classification.userMessage == "Try again soon.")
        #expect(classification.technicalMessage == "gateway said 503")
        #expect(classification.typeName == "Shop.PaymentError")
        // The producer sent no fingerprint of its own: type, code as sent, component and the message's template.
        #expect(classification.fingerprint == "Shop.PaymentError#N-503#checkout.pay#gateway said <num>")
        let context = Self.checkoutFailure.errorContext
        #expect(context.source == "checkout.pay" && context.origin == .background && context.attempt == 2)
        #expect(
            remote.provenance.service == "shop" && remote.provenance.pid == 4242
                && remote.provenance.host == "build-7")
        #expect(RemoteError(WireEvent(kind: .log, time: Self.time, body: "x")) == nil)
    }

    @Test func rfc3339FormatsUTCWithMicroseconds() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000Z")
        #expect(RFC3339.format(Self.time) == "2026-11-22T00:40:00.123456Z")
        #expect(RFC3339.parse("2024-02-29T23:59:59Z") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(RFC3339.parse("2024-02-29") == nil)
    }

    /// The writer lays the 27 bytes out in one template; it agrees with Foundation's UTC calendar, field by field,
    /// over four centuries of seeded times, the first and last instants of the four-digit years, and writes the
    /// years it cannot format as their digits give them.
    @Test func rfc3339AgreesWithTheCalendarAcrossTheYears() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 11
        }
        let start = -11_676_096_000.0  // 1600-01-01
        let end = 253_402_300_799.0  // 9999-12-31T23:59:59
        for _ in 0..<2_000 {
            let seconds = (start + Double(next() % UInt64(end - start))).rounded(.down)
            let micros = Double(next() % 1_000_000)
            let date = Date(timeIntervalSince1970: seconds + micros / 1_000_000)
            let written = RFC3339.format(date)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let fraction = written.split(separator: ".").last!.dropLast()
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
                parts.minute!, parts.second!)
            #expect(written.hasPrefix(expected + "."), "\(seconds)")
            #expect(fraction.count == 6 && RFC3339.parse(written) != nil, "\(written)")
        }
        #expect(RFC3339.format(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: end)) == "9999-12-31T23:59:59.000000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: end + 1)) == "10000-01-01T00:00:00.000000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0.9999996)) == "1970-01-01T00:00:01.000000Z")
    }
}

/// Codes are strings, kept and written back as their producer sent them.
struct VerbatimCodeTests {
    @Test(arguments: ["L-042", "40001", "ERR_CONN_RESET", "ThrottlingException", "N-503"])
    func aCodeRoundTripsAsSent(_ code: String) throws {
        let line = #"{"v":1,"kind":"error","time":"2026-11-22T00:40:00Z","exception.type":"E","error.code":"\#(code)"}"#
        let event = try WireDecoder().decode(Array(line.utf8))
        #expect(event.shownCode == code)
        #expect(RemoteError(event)?.codeText == code)
        let written = String(decoding: try WireEncoder().encode(event), as: UTF8.self)
        #expect(written.contains(#""error.code":"\#(code)""#))
        let decoded = try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8))
        #expect(decoded == event)
    }

    @Test func aLongCodeIsCut() throws {
        var event = WireEvent(kind: .error, time: Date(), exceptionType: "E")
        event.setVerbatimCode(String(repeating: "A", count: 500))
        #expect(event.codeText?.count == WireEvent.maximumCodeLength)
    }
}
