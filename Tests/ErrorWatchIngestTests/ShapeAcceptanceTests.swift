import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// Issue 24's acceptance, per shape: a log-derived error keeps both its line's message and its exception's, takes
/// the line's own time, and is fingerprinted by type, code and message template, so that occurrences that differ
/// only in ids group together and different failures do not.
struct ShapeAcceptanceTests {
    static let received = Date(timeIntervalSince1970: 1_795_100_000)

    /// One error line of a shape: what the developer wrote, what the exception said, and the line's own time.
    struct Case: Sendable, CustomStringConvertible {
        var shape: String
        var line: String
        /// The same failure, another occurrence: only masked parts differ.
        var again: String
        var message: String?
        var exception: String
        var time: Date
        var description: String { shape }
    }

    static let cases: [Case] = [
        Case(
            shape: "pino",
            line: #"{"level":50,"time":1795000002000,"msg":"request failed","err":{"type":"UpstreamError","message":"upstream closed after 12 ms"}}"#,
            again: #"{"level":50,"time":1795000003000,"msg":"request failed","err":{"type":"UpstreamError","message":"upstream closed after 480 ms"}}"#,
            message: "request failed", exception: "upstream closed after 12 ms", time: Date(timeIntervalSince1970: 1_795_000_002)),
        Case(
            shape: "bunyan",
            line: #"{"name":"api","hostname":"h","pid":1,"level":50,"msg":"request failed","err":{"name":"TypeError","message":"x is undefined"},"time":"2026-11-23T10:00:00.250Z","v":0}"#,
            again: #"{"name":"api","hostname":"h","pid":1,"level":50,"msg":"request failed","err":{"name":"TypeError","message":"x is undefined"},"time":"2026-11-23T10:00:09.250Z","v":0}"#,
            message: "request failed", exception: "x is undefined", time: RFC3339.parse("2026-11-23T10:00:00.250Z")!),
        Case(
            shape: "zap",
            line: #"{"level":"error","ts":1795000001.25,"msg":"fetch failed","error":"read tcp 10.0.0.7:5432: i/o timeout"}"#,
            again: #"{"level":"error","ts":1795000009.5,"msg":"fetch failed","error":"read tcp 10.0.0.8:5432: i/o timeout"}"#,
            message: "fetch failed", exception: "read tcp 10.0.0.7:5432: i/o timeout",
            time: Date(timeIntervalSince1970: 1_795_000_001.25)),
        Case(
            shape: "logrus",
            line: #"{"error":"write /var/data/7.db: no space left on device","level":"error","msg":"disk full","time":"2026-11-23T11:00:05+01:00"}"#,
            again: #"{"error":"write /var/data/9.db: no space left on device","level":"error","msg":"disk full","time":"2026-11-23T11:00:07+01:00"}"#,
            message: "disk full", exception: "write /var/data/7.db: no space left on device",
            time: RFC3339.parse("2026-11-23T10:00:05Z")!),
        Case(
            shape: "structlog",
            line: #"{"event": "job crashed", "level": "error", "timestamp": "2026-11-23T10:00:01Z", "exception": "Traceback (most recent call last):\n  File \"/app/w.py\", line 3, in run\nValueError: bad row 17"}"#,
            again: #"{"event": "job crashed", "level": "error", "timestamp": "2026-11-23T10:00:02Z", "exception": "Traceback (most recent call last):\n  File \"/app/w.py\", line 3, in run\nValueError: bad row 4242"}"#,
            message: "job crashed", exception: "bad row 17", time: RFC3339.parse("2026-11-23T10:00:01Z")!),
        Case(
            shape: "clef",
            line: #"{"@t":"2026-11-23T10:00:01Z","@mt":"Order {OrderId} failed","@l":"Error","@x":"Shop.ClefBoom: boom\n   at Shop.Run()","OrderId":19}"#,
            again: #"{"@t":"2026-11-23T10:00:03Z","@mt":"Order {OrderId} failed","@l":"Error","@x":"Shop.ClefBoom: boom\n   at Shop.Run()","OrderId":20}"#,
            message: "Order 19 failed", exception: "boom", time: RFC3339.parse("2026-11-23T10:00:01Z")!),
        Case(
            shape: "gelf",
            line: #"{"version":"1.1","host":"db-1","short_message":"replica lagging","full_message":"app.ReplicaLagError: replica db-2 is 31 s behind","timestamp":1795000001.5,"level":3}"#,
            again: #"{"version":"1.1","host":"db-1","short_message":"replica lagging","full_message":"app.ReplicaLagError: replica db-2 is 45 s behind","timestamp":1795000002.5,"level":3}"#,
            message: "replica lagging", exception: "replica db-2 is 31 s behind",
            time: Date(timeIntervalSince1970: 1_795_000_001.5)),
        Case(
            shape: "python-json",
            line: #"{"asctime": "2026-11-23 10:00:01,500", "levelname": "ERROR", "name": "billing", "message": "invoice failed", "exc_info": "Traceback (most recent call last):\n  File \"b.py\", line 1, in f\nRuntimeError: nope"}"#,
            again: #"{"asctime": "2026-11-23 10:00:02,500", "levelname": "ERROR", "name": "billing", "message": "invoice failed", "exc_info": "Traceback (most recent call last):\n  File \"b.py\", line 1, in f\nRuntimeError: nope"}"#,
            message: "invoice failed", exception: "nope", time: localTime(2026, 11, 23, 10, 0, 1.5)),
        Case(
            shape: "logfmt",
            line: #"ts=2026-11-23T10:00:01Z level=error msg="db query failed" err="pq: deadlock detected on row 5""#,
            again: #"ts=2026-11-23T10:00:02Z level=error msg="db query failed" err="pq: deadlock detected on row 9""#,
            message: "db query failed", exception: "pq: deadlock detected on row 5",
            time: RFC3339.parse("2026-11-23T10:00:01Z")!),
        Case(
            shape: "text",
            line: "2026-11-23T10:00:01Z ERROR cache refresh failed for key user:1234",
            again: "2026-11-23T10:00:04Z ERROR cache refresh failed for key user:98",
            message: nil, exception: "cache refresh failed for key user:1234", time: RFC3339.parse("2026-11-23T10:00:01Z")!),
    ]

    static func localTime(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int, _ s: Double) -> Date {
        var components = DateComponents(year: y, month: m, day: d, hour: h, minute: min, second: Int(s))
        components.nanosecond = Int((s - s.rounded(.down)) * 1e9)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: components)!
    }

    static func error(_ line: String) throws -> WireEvent {
        var reader = LineReader()
        let results = reader.read(Array(line.utf8), receivedAt: received) + reader.flush()
        let events = results.compactMap { try? $0.get() }
        try #require(events.count == 1)
        return events[0]
    }

    @Test(arguments: cases) func bothMessagesTheirOwnTimeAndAFingerprint(_ shape: Case) throws {
        let event = try Self.error(shape.line)
        #expect(event.kind == .error)
        #expect(event.body == shape.message, "the line's own message")
        #expect(event.exceptionMessage == shape.exception, "the exception's message")
        #expect(abs(event.time.timeIntervalSince(shape.time)) < 0.001, "the line's own time, not the receive time")
        #expect(event.code == nil && event.codeText == nil, "no code was given")
        #expect(event.category == nil, "nobody classified it")
        let first = try #require(RemoteError(event))
        let second = try #require(RemoteError(try Self.error(shape.again)))
        #expect(first.fingerprint == second.fingerprint, "occurrences that differ in masked parts group together")
        #expect(first.userMessage.isEmpty, "no user message is invented")
    }

    @Test func differentFailuresAreDifferentIssues() throws {
        let fingerprints = try Self.cases.map { try #require(RemoteError(try Self.error($0.line))).fingerprint }
        #expect(Set(fingerprints).count == fingerprints.count)
        // The four failures the issue names: three had been merged behind one title.
        let zap = try #require(RemoteError(try Self.error(Self.cases[2].line)))
        let logrus = try #require(RemoteError(try Self.error(Self.cases[3].line)))
        let gelf = try #require(RemoteError(try Self.error(Self.cases[6].line)))
        let text = try #require(RemoteError(try Self.error(Self.cases[9].line)))
        #expect(Set([zap, logrus, gelf, text].map(\.fingerprint)).count == 4)
    }

    @Test func aProducersFingerprintWins() throws {
        var event = try Self.error(Self.cases[0].line)
        event.fingerprint = "checkout-upstream"
        #expect(RemoteError(event)?.fingerprint == "checkout-upstream")
    }

    @Test func codesAreKeptAsSent() throws {
        for code in ["L-042", "40001", "ERR_CONN_RESET", "ThrottlingException"] {
            let line = #"{"level":50,"time":1795000002000,"msg":"call failed","err":{"type":"E","message":"m","code":"\#(code)"}}"#
            let event = try Self.error(line)
            #expect(event.codeText == code)
            #expect(RemoteError(event)?.codeText == code)
        }
    }

    @Test func epochTimesInAnyUnit() throws {
        let seconds = 1_795_000_001.0
        for value in ["1795000001", "1795000001000", "1795000001000000", "1795000001000000000"] {
            let event = try Self.error(#"{"level":"error","msg":"x","time":\#(value),"service":"s"}"#)
            #expect(abs(event.time.timeIntervalSince1970 - seconds) < 0.001, "\(value)")
        }
    }

    @Test func aLineWithoutATimeTakesThePreviousLinesTime() {
        var reader = LineReader()
        var results = reader.read(Array("2026-11-23T10:00:01Z INFO starting".utf8), receivedAt: Self.received)
        results += reader.read(Array("worker ready".utf8), receivedAt: Self.received)
        results += reader.read(Array("ERROR no time here".utf8), receivedAt: Self.received)
        results += reader.flush()
        let times = results.compactMap { try? $0.get() }.map(\.time)
        #expect(times == Array(repeating: RFC3339.parse("2026-11-23T10:00:01Z")!, count: 3))
        // The first line of a source without a time takes the receive time.
        var fresh = LineReader()
        let first = fresh.read(Array("no time at all".utf8), receivedAt: Self.received) + fresh.flush()
        #expect(first.compactMap { try? $0.get() }.map(\.time) == [Self.received])
    }

    @Test func aTracebackUnderAnInfoLineIsAnErrorOfItsOwn() throws {
        let read = events([
            "2026-11-23 10:00:00,001 INFO worker: order 7 accepted",
            "Traceback (most recent call last):",
            "  File \"/app/worker.py\", line 41, in process",
            "KeyError: 'sku-42'",
        ])
        #expect(read.map(\.kind) == [.log, .error])
        #expect(read[0].body == "order 7 accepted")
        #expect(read[0].source == "worker")
        #expect(read[1].exceptionType == "KeyError")
        #expect(read[1].exceptionStacktrace?.hasPrefix("Traceback") == true)
    }

    @Test func chainsKeepTheirWholeTrace() throws {
        let python = events([
            "2026-11-23 10:00:00,001 ERROR worker: job failed",
            "Traceback (most recent call last):",
            "  File \"/app/a.py\", line 1, in f",
            "KeyError: 'x'",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            "  File \"/app/a.py\", line 3, in f",
            "ValueError: bad",
        ])
        #expect(python.count == 1)
        #expect(python[0].exceptionType == "ValueError")
        #expect(python[0].exceptionStacktrace?.contains("KeyError: 'x'") == true)
        let java = events([
            "2026-11-23 10:00:00,001 ERROR c.s.Api - request failed",
            "java.lang.IllegalStateException: outer",
            "\tat shop.Api.run(Api.java:10)",
            "Caused by: java.io.IOException: inner",
            "\tat shop.Db.read(Db.java:5)",
            "\t... 3 more",
        ])
        #expect(java.count == 1)
        #expect(java[0].exceptionStacktrace?.contains("Caused by: java.io.IOException: inner") == true)
        let go = events([
            "panic: runtime error: index out of range [5] with length 3",
            "",
            "goroutine 1 [running]:",
            "main.main()",
            "\t/app/main.go:8 +0x1d",
            "exit status 2",
        ])
        #expect(go.count == 1)
        #expect(go[0].exceptionStacktrace?.contains("goroutine 1 [running]:") == true)
    }
}
