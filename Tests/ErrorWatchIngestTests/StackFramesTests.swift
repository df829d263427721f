import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest

/// Crash reports read into frames. Each fixture is a real run's output on this machine (Swift 6.3 with
/// `SWIFT_BACKTRACE=color=no,registers=none,images=none`, as `errorwatch run` sets it; CPython 3.11; Node 20;
/// OpenJDK 17), except Go's, written from the runtime's documented panic format (Go is not installed here).
struct StackFramesTests {
    static let swiftCrash = """
        trap/trap.swift:2: Fatal error: cannot divide 8 by zero

        *** Signal 4: Backtracing from 0x7f86eb0f9361... done ***

        *** Program crashed: Illegal instruction at 0x00007f86eb0f9361 ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "trap" crashed:

          0      0x00007f86eb0f9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so
          1 [ra] 0x000055bb0b67645d divide(_:by:) + 348 in trap at /tmp/fx/trap.swift:2:17
          2 [ra] 0x000055bb0b676697 main + 262 in trap at /tmp/fx/trap.swift:7:7
        ...

        Backtrace took 0.02s
        """

    static let pythonTraceback = """
        Traceback (most recent call last):
          File "/tmp/fx/app.py", line 5, in <module>
            main()
          File "/tmp/fx/app.py", line 4, in main
            load("bob")
          File "/tmp/fx/app.py", line 2, in load
            return {"a": 1}[user]
                   ~~~~~~~~^^^^^^
        KeyError: 'bob'
        """

    static let nodeError = """
        /tmp/fx/app.js:2
          throw new Error("no user " + user);
          ^

        Error: no user bob
            at load (/tmp/fx/app.js:2:9)
            at Object.<anonymous> (/tmp/fx/app.js:4:1)
            at Module._compile (node:internal/modules/cjs/loader:1521:14)
            at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
            at Module.load (node:internal/modules/cjs/loader:1266:32)
            at Module._load (node:internal/modules/cjs/loader:1091:12)
            at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
            at node:internal/main/run_main_module:28:49

        Node.js v20.20.2
        """

    static let javaException = """
        Exception in thread "main" java.lang.IllegalStateException: no user bob
        \tat Main.load(Main.java:2)
        \tat Main.main(Main.java:3)
        """

    static let goPanic = """
        panic: runtime error: integer divide by zero

        goroutine 1 [running]:
        main.divide(...)
        \t/home/dev/shop/main.go:8
        main.main()
        \t/home/dev/shop/main.go:14 +0x1d
        exit status 2
        """

    @Test func swiftBacktraceFramesKeepFileLineColumnAndFunction() throws {
        let parsed = try #require(StackFrames.parse(Self.swiftCrash))
        #expect(parsed.frames.count == 3)
        // Oldest call first: main, then divide, then the runtime's assertion (no source: a library frame).
        #expect(parsed.frames[0].function == "main")
        #expect(parsed.frames[0].file == "/tmp/fx/trap.swift")
        #expect(parsed.frames[0].line == 7)
        #expect(parsed.frames[0].column == 7)
        #expect(parsed.frames[1].function == "divide(_:by:)")
        #expect(parsed.frames[1].line == 2)
        #expect(parsed.frames[1].column == 17)
        #expect(parsed.frames[1].module == "trap")
        #expect(parsed.frames[2].function == "_assertionFailure(_:_:file:line:flags:)")
        #expect(parsed.frames[2].file == nil)
        #expect(parsed.frames[2].module == "libswiftCore.so")
    }

    @Test func pythonTracebackFramesInCallOrder() throws {
        let parsed = try #require(StackFrames.parse(Self.pythonTraceback))
        #expect(parsed.frames.map(\.function) == ["<module>", "main", "load"])
        #expect(parsed.frames.map(\.line) == [5, 4, 2])
        #expect(parsed.frames.allSatisfy { $0.file == "/tmp/fx/app.py" })
    }

    @Test func chainedPythonTracebackKeepsTheLastOne() throws {
        let chained = """
            Traceback (most recent call last):
              File "/src/a.py", line 3, in first
                x()
            ValueError: inner

            During handling of the above exception, another exception occurred:

            Traceback (most recent call last):
              File "/src/b.py", line 9, in second
                y()
            RuntimeError: outer
            """
        let parsed = try #require(StackFrames.parse(chained))
        #expect(parsed.frames.map(\.file) == ["/src/b.py"])
        #expect(parsed.frames.first?.function == "second")
    }

    @Test func nodeFramesWithAndWithoutFunctionNames() throws {
        let parsed = try #require(StackFrames.parse(Self.nodeError))
        #expect(parsed.frames.count == 8)
        let failing = try #require(parsed.frames.last)
        #expect(failing.function == "load")
        #expect(failing.file == "/tmp/fx/app.js")
        #expect(failing.line == 2)
        #expect(failing.column == 9)
        #expect(parsed.frames[parsed.frames.count - 2].function == "Object.<anonymous>")
        // `at node:internal/main/run_main_module:28:49`: no function, a place only.
        #expect(parsed.frames[0].function == nil)
        #expect(parsed.frames[0].file == "node:internal/main/run_main_module")
        #expect(parsed.frames[0].line == 28)
    }

    @Test func javaFramesNameClassAndMethod() throws {
        let parsed = try #require(StackFrames.parse(Self.javaException))
        #expect(parsed.frames.map(\.function) == ["Main.main", "Main.load"])
        #expect(parsed.frames.map(\.file) == ["Main.java", "Main.java"])
        #expect(parsed.frames.map(\.line) == [3, 2])
        #expect(parsed.frames.map(\.module) == ["Main", "Main"])
    }

    @Test func javaCausedByStopsAtTheFirstException() throws {
        let text = """
            java.lang.RuntimeException: outer
            \tat com.shop.Api.call(Api.java:10)
            Caused by: java.io.IOException: inner
            \tat com.shop.Net.read(Net.java:20)
            """
        let parsed = try #require(StackFrames.parse(text))
        #expect(parsed.frames.map(\.function) == ["com.shop.Api.call"])
        #expect(parsed.frames.first?.module == "com.shop.Api")
    }

    @Test func goPanicFramesPairFunctionAndPlace() throws {
        let parsed = try #require(StackFrames.parse(Self.goPanic))
        #expect(parsed.frames.map(\.function) == ["main.main", "main.divide"])
        #expect(parsed.frames.map(\.file) == ["/home/dev/shop/main.go", "/home/dev/shop/main.go"])
        #expect(parsed.frames.map(\.line) == [14, 8])
        #expect(parsed.frames.map(\.module) == ["main", "main"])
    }

    @Test func textWithoutFramesIsNone() {
        #expect(StackFrames.parse("just a message") == nil)
        #expect(StackFrames.parse("ERROR: at the moment nothing works") == nil)
        #expect(StackFrames.parse("") == nil)
    }

    @Test func framesPastTheCapKeepTheFailingEnd() throws {
        let lines = (1...300).map { "    at f\($0) (/src/app.js:\($0):1)" }
        let parsed = try #require(StackFrames.parse("Error: deep\n" + lines.joined(separator: "\n")))
        #expect(parsed.frames.count == StackFrames.maximumFrames)
        #expect(parsed.omitted == 50)
        // Printed newest first: f1 failed; it is kept, last.
        #expect(parsed.frames.last?.function == "f1")
    }

    /// The Swift crash as `errorwatch run` reads it from stderr: one error, its message from `Fatal error:`, its
    /// trace holding the backtrace, which reads into frames.
    @Test func swiftCrashReadFromLinesIsOneErrorWithFrames() throws {
        let lines = Self.swiftCrash.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let read = events(lines)
        let errors = read.filter { $0.kind == .error }
        #expect(errors.count == 1)
        let crash = try #require(errors.first)
        #expect(crash.exceptionMessage == "cannot divide 8 by zero")
        let stack = try #require(crash.exceptionStacktrace)
        #expect(stack.contains("Backtrace took 0.02s"))
        let parsed = try #require(StackFrames.parse(stack))
        #expect(parsed.frames.last?.function == "_assertionFailure(_:_:file:line:flags:)")
        #expect(parsed.frames.contains { $0.function == "divide(_:by:)" && $0.line == 2 })
        // Nothing of the trace is left over as log lines of its own.
        #expect(read.filter { $0.kind == .log }.isEmpty)
    }

    @Test func nodeCrashReadFromLinesIsOneErrorWithFrames() throws {
        let lines = Self.nodeError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let errors = events(lines).filter { $0.kind == .error }
        let error = try #require(errors.first { $0.exceptionStacktrace?.contains("at load") == true })
        #expect(error.exceptionType == "Error")
        #expect(error.exceptionMessage == "no user bob")
        let stack = try #require(error.exceptionStacktrace)
        let parsed = try #require(StackFrames.parse(stack))
        #expect(parsed.frames.last?.file == "/tmp/fx/app.js")
    }
}
