import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// An event whose producer's time cannot be read is counted at the time it was read and marked with what was sent,
/// never dropped (issue 34, item 6: 2 of 5 such events had been counted).
struct UnreadableTimeTests {
    static let read = Date(timeIntervalSince1970: 1_795_000_000)
    static let earlier = "2026-11-23T10:00:00Z"

    /// The times the hostile producer sent: a month 13, a number too large for any date, a negative number, a word
    /// and a negative number as text.
    static let badTimes: [(json: String, kept: String)] = [
        (#""2026-13-01T00:00:00Z""#, "2026-13-01T00:00:00Z"), ("1e308", "1e308"), ("-1", "-1"),
        (#""yesterday""#, "yesterday"), (#""-1""#, "-1"),
    ]

    /// Each wire line, read after a good one from the same source: 5 of 5 kept, at the time they were read (not
    /// the previous line's), each marked with the time as it was sent.
    @Test func wireLinesWithBadTimesAreKeptAndMarked() throws {
        let good = #"{"v":1,"kind":"error","time":"\#(Self.earlier)","exception.type":"E"}"#
        let bad = Self.badTimes.map { #"{"v":1,"kind":"error","time":\#($0.json),"exception.type":"E","msg":"x"}"# }
        let results = readAll([good] + bad, at: Self.read)
        let read = try results.map { try $0.get() }
        #expect(read.count == 1 + Self.badTimes.count)
        #expect(read[0].time == RFC3339.parse(Self.earlier) && read[0].attributes.isEmpty)
        for (event, expected) in zip(read.dropFirst(), Self.badTimes) {
            #expect(event.time == Self.read)
            #expect(event.attributes[WireEvent.unreadableTimeAttribute] == expected.kept)
            #expect(RemoteError(event)?.provenance.time == Self.read)
        }
    }

    /// Foundation's decoder (the format's reference) keeps them too.
    @Test func theCodablePathKeepsThemToo() throws {
        for (json, _) in Self.badTimes {
            let line = #"{"v":1,"kind":"error","time":\#(json),"exception.type":"E"}"#
            let event = try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8))
            #expect(event.attributes[WireEvent.unreadableTimeAttribute] != nil)
        }
    }

    /// A time of another type (a boolean, an object) is still refused, with the member named.
    @Test func aTimeOfAnotherTypeIsRefused() {
        for json in ["true", #"{"s":"1"}"#] {
            let line = #"{"v":1,"kind":"error","time":\#(json),"exception.type":"E"}"#
            #expect(throws: WireError.invalidField("time")) { try WireDecoder().decode(Array(line.utf8)) }
        }
    }

    /// JSON log lines (pino, logrus, zap, structlog, a plain JSON line) with a time member that cannot be read: kept
    /// at the time read, not the previous line's, and marked.
    @Test func jsonLogLinesWithBadTimesAreKeptAndMarked() throws {
        let lines = [
            #"{"level":"error","time":"\#(Self.earlier)","msg":"first"}"#,
            #"{"level":50,"time":"2026-13-01T00:00:00Z","msg":"pino","pid":1,"hostname":"h"}"#,
            #"{"level":"error","time":1e308,"msg":"logrus"}"#,
            #"{"level":"error","ts":-1,"msg":"zap","caller":"a.go:1"}"#,
            #"{"event":"structlog","level":"error","timestamp":"yesterday"}"#,
            #"{"message":"plain","severity":"ERROR","@timestamp":"-1"}"#,
        ]
        let read = try readAll(lines, at: Self.read).map { try $0.get() }
        #expect(read.count == lines.count)
        #expect(read[0].attributes[WireEvent.unreadableTimeAttribute] == nil)
        let marked = read.dropFirst().filter { $0.attributes[WireEvent.unreadableTimeAttribute] != nil }
        #expect(marked.count == 5, "\(read.map(\.attributes))")
        #expect(read.dropFirst().allSatisfy { $0.time == Self.read })
    }
}
