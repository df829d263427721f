import ErrorStreaming
import Foundation
import Logging
import Testing

@testable import ErrorWatchWire

/// The forwarder writes a stream's events straight from `ErrorEvent` (`WireEncoder.appendLine(for:to:)`); those
/// lines must be the very bytes of the general path, `encode(wireEvent(for:))`, for every kind of error.
struct ErrorEventEncodingTests {
    struct Plain: Error {}

    private static let time = Date(timeIntervalSince1970: 1_764_000_000.123456)

    private static var events: [ErrorEvent] {
        let stream = ErrorStream(now: { time })
        let tricky = "quote \" backslash \\ newline \n tab \t bell \u{7} é 漢"
        stream.add(CheckoutDeclined(), context: ErrorContext(source: "checkout", attempt: 3, metadata: ["sku": "mug"]))
        stream.add(Plain(), context: ErrorContext(source: tricky, severity: .critical, origin: .background))
        stream.add(URLError(.timedOut), context: ErrorContext(metadata: [tricky: tricky, "a": "", "z": "1"]))
        stream.add(
            RemoteError(
                typeName: "Shop.Outage", message: tricky, code: "N-503", category: .transient,
                stackTrace: "at a\nat b",
                sourceLocation: CodeLocation(file: "Shop/Remote.swift", line: 41, function: ""),
                provenance: Provenance(time: Date(), service: "remote")),
            context: ErrorContext(attempt: -2))
        stream.add(RemoteError(typeName: "Shop.Bare", message: ""))
        _ = reportBug("stock went below zero", to: stream, source: "inventory")
        var events: [ErrorEvent] = []
        let poller = stream.eventPoller(bufferingPolicy: .unbounded, replay: 10) {}
        poller.poll { events.append($0) }
        events.append(ErrorEvent(error: CheckoutDeclined(), sequence: 99, timestamp: time))  // no location
        events.append(ErrorEvent(error: Plain(), sequence: .max, timestamp: Date(timeIntervalSince1970: -1e6)))
        return events
    }

    @Test(arguments: [SourceInfo(serviceName: "shop \"east\"", pid: 4_242, host: "h-1"), nil])
    func theDirectLineIsTheGeneralPathsLine(source: SourceInfo?) throws {
        let encoder = WireEncoder(source: source)
        let events = Self.events
        #expect(events.count == 8)
        for event in events {
            let general = try encoder.encode(encoder.wireEvent(for: event))
            var direct: [UInt8] = [1, 2]  // appended after what is there
            try encoder.appendLine(for: event, to: &direct)
            #expect(direct.dropFirst(2).elementsEqual(general), "\(String(decoding: general, as: UTF8.self))")
            #expect(try encoder.encode(event) == general)
        }
    }

    @Test(arguments: [SourceInfo(serviceName: "shop", pid: 7, host: "h"), nil])
    func theDirectLogLineIsTheGeneralPathsLine(source: SourceInfo?) throws {
        let encoder = WireEncoder(source: source)
        let tricky = "quote \" backslash \\ newline \n é"
        let records: [(Logger.Level, String, [String: String], (any Error)?)] = [
            (.info, "order placed", [:], nil),
            (.warning, tricky, ["sku": "mug", tricky: tricky], nil),
            (.error, "payment failed", ["request": "r-1"], CheckoutDeclined()),
            (.trace, "", [:], Plain()),
        ]
        for (level, message, metadata, error) in records {
            let general = try encoder.encode(
                encoder.wireEvent(
                    level: level, message: message, label: "shop.http", metadata: metadata, error: error,
                    time: Self.time))
            var direct: [UInt8] = []
            try encoder.appendLogLine(
                level: level, message: message, label: "shop.http", metadata: metadata, error: error,
                time: Self.time, to: &direct)
            #expect(direct == general, "\(String(decoding: general, as: UTF8.self))")
        }
    }

    @Test(arguments: [SourceInfo(serviceName: "shop", pid: 7, host: "h"), nil])
    func theDirectHandlingLineIsTheGeneralPathsLine(source: SourceInfo?) throws {
        let encoder = WireEncoder(source: source)
        let long = (0..<(WireEvent.maximumHandlingPathCount + 5)).map { "node \($0)" }
        let reports = [
            HandlingReport(sequence: 7, path: ["screen"], outcome: .consumed(by: "screen"), handled: true),
            HandlingReport(sequence: 1, path: [], outcome: .passed, handled: false),
            HandlingReport(sequence: .max, path: long + ["quote \" \\ \n"], outcome: .passed, handled: false),
        ]
        for report in reports {
            let general = try encoder.encode(encoder.handlingEvent(for: report, time: Self.time))
            var direct: [UInt8] = []
            try encoder.appendHandlingLine(for: report, time: Self.time, to: &direct)
            #expect(direct == general, "\(String(decoding: general, as: UTF8.self))")
        }
    }

    @Test func aLineTooLongIsRefusedAndLeavesTheBufferAsItWas() {
        let huge = String(repeating: "x", count: LineFramer.defaultMaximumLineBytes)
        let event = ErrorEvent(
            error: CheckoutDeclined(), sequence: 1, timestamp: Self.time, context: ErrorContext(metadata: ["big": huge]))
        var bytes: [UInt8] = [7]
        #expect(throws: WireError.self) { try WireEncoder().appendLine(for: event, to: &bytes) }
        #expect(bytes == [7])
    }

    @Test func timesAndIntegersAreWrittenAsTheirStrings() {
        for seconds in [0.0, 1_764_000_000.123456, 253_402_300_799.5, -62_167_219_200, 951_782_400.5] {
            var bytes: [UInt8] = []
            RFC3339.write(Date(timeIntervalSince1970: seconds), to: &bytes)
            #expect(bytes.count == 27 && RFC3339.format(Date(timeIntervalSince1970: seconds)).utf8.count == 27)
            let parsed = RFC3339.parse(String(decoding: bytes, as: UTF8.self))
            #expect(parsed.map { abs($0.timeIntervalSince1970 - seconds) < 1e-6 } == true)
        }
        for value: Int64 in [0, 9, 10, -1, -10, 1_234_567, .max, .min] {
            var bytes: [UInt8] = []
            WireEvent.writeInteger(value, &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
        var bytes: [UInt8] = []
        WireEvent.writeInteger(UInt64.max, &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == String(UInt64.max))
    }
}
