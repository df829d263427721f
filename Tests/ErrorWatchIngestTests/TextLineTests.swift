import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

struct TextLineTests {
    @Test func timestampsAndLevelWords() {
        let read = events([
            "2026-11-23T10:00:00.250Z ERROR payment failed: card declined",
            "2026-11-23 10:00:01,500 [worker-3] WARN  com.shop.Cache - eviction storm",
            "[2026-11-23 10:00:02] [error] upstream timed out (110: Connection timed out)",
            "2026/11/23 10:00:03 info: listening on :8080",
            "<E> disk full",
            "level=warn this is not logfmt without msg",
            "just a line with a connection error in it",
            "ERROR:root:checkout failed for cart 7",
        ])
        #expect(read.count == 8)
        #expect(read[0].kind == .error)
        #expect(read[0].exceptionType == "Error")
        #expect(read[0].exceptionMessage == "payment failed: card declined")
        #expect(read[0].body == nil)
        #expect(read[0].time == utc("2026-11-23T10:00:00.250Z"))
        #expect(read[0].attributes["log.format"] == "text")
        #expect(read[1].kind == .log)
        #expect(read[1].severity == .warning)
        #expect(read[1].body == "[worker-3] com.shop.Cache - eviction storm")
        #expect(read[2].kind == .error)
        #expect(read[2].exceptionMessage == "upstream timed out (110: Connection timed out)")
        #expect(read[3].severity == .info)
        #expect(read[3].body == "listening on :8080")
        #expect(read[4].severity == .error)
        #expect(read[4].exceptionMessage == "disk full")
        #expect(read[5].severity == .warning)
        #expect(read[6].kind == .log)
        #expect(read[6].severity == nil)
        #expect(read[6].body == "just a line with a connection error in it")
        #expect(read[7].kind == .error)
        #expect(read[7].source == "root")
        #expect(read[7].exceptionMessage == "checkout failed for cart 7")
    }

    @Test func syslogAndKlogStamps() throws {
        let read = events([
            "E1123 10:00:05.123456    4242 controller.go:88] sync failed: conflict",
            "Nov 23 10:00:06 web-1 nginx[77]: CRIT worker exited",
        ])
        #expect(read.count == 2)
        #expect(read[0].kind == .error)
        #expect(read[0].exceptionMessage == "4242 controller.go:88] sync failed: conflict")
        #expect(read[1].severity == .critical)
        let local = try #require(LogTimestamp.parse("2026-11-23 10:00:06"))
        #expect(read[1].time == local)
    }

    @Test func logfmtLines() {
        let read = events([
            #"time="2026-11-23T10:00:00Z" level=info msg="request served" path=/products status=200"#,
            #"ts=2026-11-23T10:00:01Z level=error msg="db query failed" err="pq: deadlock detected" caller=store/db.go:51"#,
        ])
        #expect(read.map(\.kind) == [.log, .error])
        #expect(read[0].body == "request served")
        #expect(read[0].attributes["path"] == "/products")
        #expect(read[0].attributes["log.format"] == "logfmt")
        #expect(read[1].exceptionMessage == "pq: deadlock detected")
        #expect(read[1].body == "db query failed")
        #expect(read[1].codeFilePath == "store/db.go")
        #expect(read[1].codeLineNumber == 51)
    }

    @Test func invalidDatesAreNotTimestamps() {
        #expect(LogTimestamp.parse("2026-02-31T00:00:00Z") == nil)
        #expect(LogTimestamp.parse("2026-11-23T10:00:00-99:99") == nil)
        #expect(LogTimestamp.parse("2026-11-23T24:00:00Z") == nil)
        #expect(LogTimestamp.parse("2024-02-29T00:00:00Z") != nil)
        #expect(LogTimestamp.parse("2026-11-23T10:00:00+0100") == utc("2026-11-23T09:00:00Z"))
        #expect(RFC3339.parse("2026-02-31T00:00:00Z") == nil)
        #expect(RFC3339.parse("2026-11-23T10:00:00-99:99") == nil)
        // A line whose "timestamp" is not a date keeps it in the message and takes the time it was read.
        let read = events(["2026-02-31 10:00:00 ERROR impossible date"])
        #expect(read.first?.time == LineReaderTests.received)
        #expect(read.first?.kind == .error)
    }
}

struct TracebackTests {
    @Test func pythonTracebackAfterLoggerException() {
        let read = events([
            "2026-11-23 10:00:00,001 ERROR worker: order 7 failed",
            "Traceback (most recent call last):",
            "  File \"/app/worker.py\", line 41, in process",
            "    reserve(order)",
            "  File \"/app/stock.py\", line 12, in reserve",
            "    raise KeyError(order.sku)",
            "KeyError: 'sku-42'",
            "2026-11-23 10:00:01,000 INFO worker: next order",
        ])
        #expect(read.count == 2)
        #expect(read[0].kind == .error)
        #expect(read[0].exceptionType == "KeyError")
        #expect(read[0].exceptionMessage == "'sku-42'")
        // `LEVEL logger: message`, the shape Python's `logging` is most often given: the logger is the source.
        #expect(read[0].body == "order 7 failed")
        #expect(read[0].source == "worker")
        #expect(read[0].exceptionStacktrace?.hasPrefix("Traceback (most recent call last):\n  File") == true)
        #expect(read[0].exceptionStacktrace?.hasSuffix("KeyError: 'sku-42'") == true)
        #expect(read[1].body == "next order")
        #expect(read[1].source == "worker")
    }

    @Test func chainedPythonTracebackOnItsOwn() {
        let read = events([
            "Traceback (most recent call last):",
            "  File \"a.py\", line 1, in <module>",
            "ZeroDivisionError: division by zero",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            "  File \"a.py\", line 3, in <module>",
            "ValueError: bad total",
            "next line",
        ])
        #expect(read.count == 2)
        #expect(read[0].exceptionType == "ValueError")
        #expect(read[0].exceptionMessage == "bad total")
        #expect(read[0].exceptionStacktrace?.contains("ZeroDivisionError") == true)
        #expect(read[1].body == "next line")
    }

    @Test func javaAndDotNetExceptions() {
        let read = events([
            "Exception in thread \"main\" java.lang.IllegalStateException: cart already paid",
            "\tat shop.Checkout.pay(Checkout.java:42)",
            "\tat shop.Main.main(Main.java:7)",
            "Caused by: java.sql.SQLException: deadlock",
            "\t... 2 more",
            "2026-11-23 10:00:00 ERROR c.s.Api - request failed",
            "java.net.SocketTimeoutException: Read timed out",
            "\tat java.base/java.net.SocketInputStream.read(SocketInputStream.java:183)",
            "Unhandled exception. System.InvalidOperationException: Sequence contains no elements",
            "   at System.Linq.ThrowHelper.ThrowNoElementsException()",
            "   at Program.<Main>$(String[] args) in /src/Program.cs:line 5",
        ])
        #expect(read.count == 3)
        #expect(read[0].exceptionType == "java.lang.IllegalStateException")
        #expect(read[0].exceptionMessage == "cart already paid")
        #expect(read[0].exceptionStacktrace?.contains("Caused by: java.sql.SQLException: deadlock") == true)
        #expect(read[1].exceptionType == "java.net.SocketTimeoutException")
        #expect(read[1].exceptionMessage == "Read timed out")
        #expect(read[1].body == "c.s.Api - request failed")
        #expect(read[2].exceptionType == "System.InvalidOperationException")
        #expect(read[2].exceptionStacktrace?.contains("Program.cs:line 5") == true)
    }

    @Test func goPanicWithGoroutineDump() {
        let read = events([
            "panic: runtime error: index out of range [5] with length 3",
            "",
            "goroutine 1 [running]:",
            "main.lookup(...)",
            "\t/src/main.go:12",
            "main.main()",
            "\t/src/main.go:8 +0x1d",
            "exit status 2",
            "after the crash",
        ])
        #expect(read.count == 2)
        #expect(read[0].exceptionType == "panic")
        #expect(read[0].exceptionMessage == "runtime error: index out of range [5] with length 3")
        #expect(read[0].severity == .critical)
        #expect(read[0].exceptionStacktrace?.contains("goroutine 1 [running]:") == true)
        #expect(read[0].exceptionStacktrace?.contains("exit status 2") == true)
        #expect(read[1].body == "after the crash")
    }

    @Test func swiftFatalErrorAndBacktrace() {
        let read = events([
            "Shop/Cart.swift:88: Fatal error: Index out of range",
            "",
            "💣 Program crashed: System trap at 0x000055d3c1a2b3c4",
            "Thread 0 crashed:",
            "0      0x000055d3c1a2b3c4 Cart.total() in shop at /src/Shop/Cart.swift:88:9",
            "1 [ra] 0x000055d3c1a2b000 main in shop at /src/main.swift:3:1",
            "Backtrace took 0.01s",
            "next",
        ])
        #expect(read.count == 2)
        #expect(read[0].exceptionType == "Fatal error")
        #expect(read[0].exceptionMessage == "Index out of range")
        #expect(read[0].codeFilePath == "Shop/Cart.swift")
        #expect(read[0].codeLineNumber == 88)
        #expect(read[0].exceptionStacktrace?.contains("Thread 0 crashed:") == true)
    }

    @Test func aHeldLineIsEmittedOnFlushAndTracesAreCapped() {
        var reader = LineReader()
        #expect(reader.read(Array("ERROR first".utf8), receivedAt: LineReaderTests.received).isEmpty)
        #expect(reader.hasPendingEvent)
        let flushed = reader.flush()
        #expect(flushed.count == 1)
        #expect(!reader.hasPendingEvent)
        var lines = ["panic: flood"]
        lines += (0..<5_000).map { "\t/src/file\($0).go:1 +0x\($0)" }
        let read = events(lines)
        #expect(read.count == 1)
        let stack = read[0].exceptionStacktrace ?? ""
        #expect(stack.utf8.count <= TracebackFolder.maximumStackBytes + 40)
        #expect(stack.hasSuffix("more lines"))
    }
}

struct LineReaderPropertyTests {
    /// Arbitrary bytes never crash the reader and never yield more events than lines.
    @Test func arbitraryBytesNeverCrashOrMultiply() {
        var generator = SeededGenerator(seed: 0x5EED)
        let fragments: [[UInt8]] = [
            Array("{\"level\":50,".utf8), Array("Traceback (most recent call last):".utf8), Array("\tat x".utf8),
            Array("panic: ".utf8), Array("{\"v\":1,".utf8), Array("\"@t\":".utf8), Array("level=error msg=".utf8),
            Array("2026-11-23 10:00:00 ".utf8), [0xFF, 0xFE, 0x00, 0x1B, 0x5B], Array("💣".utf8), Array("}".utf8),
            Array("Fatal error: ".utf8), Array("\"".utf8), Array("\\u12".utf8),
        ]
        for format in LogFormat.allCases {
            var reader = LineReader(format: format)
            var lines = 0
            var results = 0
            for _ in 0..<400 {
                var line: [UInt8] = []
                for _ in 0..<Int(generator.next() % 6) {
                    if generator.next() % 2 == 0 {
                        line += fragments[Int(generator.next() % UInt64(fragments.count))]
                    } else {
                        line += (0..<Int(generator.next() % 12)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                    }
                }
                line.removeAll { $0 == 0x0A }
                lines += 1
                results += reader.read(line, receivedAt: LineReaderTests.received).count
                #expect(results <= lines)
            }
            results += reader.flush().count
            #expect(results <= lines, "format \(format)")
        }
    }
}
