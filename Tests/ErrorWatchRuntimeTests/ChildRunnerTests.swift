import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// `errorwatch run`'s child under the dashboard: its lines, its exit as an event, restart, stop, the grace period
/// and the process group, timed by a manual clock and observed through what the ingest receives.
struct ChildRunnerTests {
    /// What the runner hands the ingest, in order.
    struct Observed {
        var iterator: AsyncStream<WireEvent>.Iterator

        init(_ runtime: DashboardRuntime) {
            let (stream, continuation) = AsyncStream<WireEvent>.makeStream()
            runtime.ingest.observe { continuation.yield($0) }
            iterator = stream.makeAsyncIterator()
        }

        /// Events up to and including the first that `matches`.
        mutating func until(_ matches: (WireEvent) -> Bool) async -> [WireEvent] {
            var seen: [WireEvent] = []
            while let event = await iterator.next() {
                seen.append(event)
                if matches(event) { return seen }
            }
            return seen
        }
    }

    static func runner(
        _ script: String, restart: ChildRunner.RestartPolicy = .never, clock: ManualClock
    ) -> ChildRunner {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var configuration = ChildRunner.Configuration(
            command: ChildProcess.Command(arguments: ["sh", "-c", script], environment: [:]), restart: restart)
        configuration.gracePeriod = .seconds(3)
        return ChildRunner(configuration: configuration, clock: ErasedClock(clock)) { ["PATH": path] }
    }

    static func runtime() -> DashboardRuntime {
        DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
    }

    static func isStatus(_ event: WireEvent, _ prefix: String) -> Bool {
        event.kind == .status && event.statusState?.hasPrefix(prefix) == true
    }

    @Test(.timeLimit(.minutes(1))) func linesAreMarkedAndAnAbnormalExitIsAnError() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let runner = Self.runner("echo hello; echo oops >&2; exit 2", clock: ManualClock())
        try await runner.start(into: runtime)
        let events = await observed.until { $0.exceptionType == "ProcessExit" }
        let hello = try #require(events.first { $0.body == "hello" })
        #expect(hello.attributes["log.iostream"] == "stdout")
        #expect(hello.serviceName == "sh")
        let oops = try #require(events.first { $0.body == "oops" })
        #expect(oops.attributes["log.iostream"] == "stderr")
        #expect(oops.source == "stderr")
        #expect(events.contains { Self.isStatus($0, "running (pid ") })
        #expect(events.contains { Self.isStatus($0, "exited with status 2") && $0.statusHealth == .failing })
        let exit = try #require(events.last)
        #expect(exit.kind == .error)
        #expect(exit.exceptionMessage == "sh exited with status 2")
        #expect(exit.codeText == "exit 2")
        // Its lines came before it: they are its breadcrumbs.
        #expect(events.firstIndex { $0.body == "hello" }! < events.count - 1)
        #expect(runner.lastEnding == ChildRunner.Ending(termination: .exited(code: 2), endedByErrorwatch: false))
        await runner.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func aCleanExitIsNoError() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let runner = Self.runner("echo done", clock: ManualClock())
        try await runner.start(into: runtime)
        let events = await observed.until { Self.isStatus($0, "exited with status 0") }
        #expect(!events.contains { $0.kind == .error })
        #expect(events.last?.statusHealth == .idle)
        await runner.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func restartEndsTheRunAndStartsAnother() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let runner = Self.runner("echo run; exec sleep 1000", clock: ManualClock())
        try await runner.start(into: runtime)
        _ = await observed.until { $0.body == "run" }
        let first = try #require(runner.pid)
        runner.restart()
        let events = await observed.until { $0.body == "run" }
        // Ended by us: a log line and a status, no error.
        #expect(!events.contains { $0.kind == .error })
        #expect(events.contains { Self.isStatus($0, "stopped: SIGTERM") })
        let second = try #require(runner.pid)
        #expect(second != first)
        await runner.shutdown()
        #expect(runner.pid == nil)
        #expect(runner.lastEnding?.endedByErrorwatch == true)
    }

    /// A child that ignores SIGTERM gets SIGKILL when the grace period is over, not before.
    @Test(.timeLimit(.minutes(1))) func stopWaitsTheGracePeriodThenKills() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let clock = ManualClock()
        let runner = Self.runner("trap '' TERM; echo up; while :; do sleep 1; done", clock: clock)
        try await runner.start(into: runtime)
        _ = await observed.until { $0.body == "up" }
        runner.toggle()
        await clock.waitForSleepers(count: 1)
        #expect(runner.pid != nil)
        clock.advance(by: .seconds(3))
        let events = await observed.until { Self.isStatus($0, "stopped: SIGKILL") }
        #expect(!events.contains { $0.kind == .error })
        #expect(
            runner.lastEnding
                == ChildRunner.Ending(termination: .signalled(signal: SIGKILL, coreDumped: false), endedByErrorwatch: true))
        // Stopped stays stopped; x starts it again.
        runner.toggle()
        _ = await observed.until { $0.body == "up" }
        runner.interrupt()
        await runner.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func onFailureRestartsAfterTheBackoff() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let clock = ManualClock()
        let runner = Self.runner("echo run; exit 1", restart: .onFailure, clock: clock)
        try await runner.start(into: runtime)
        _ = await observed.until { $0.body == "run" }
        let waiting = await observed.until { Self.isStatus($0, "restarting in") }
        #expect(waiting.last?.statusState == "restarting in 1s")
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        _ = await observed.until { $0.body == "run" }
        // The second failure in a row waits twice as long.
        let again = await observed.until { Self.isStatus($0, "restarting in") }
        #expect(again.last?.statusState == "restarting in 2s")
        await runner.shutdown()
    }

    /// `q`: the child and what it started in its group are ended; nothing is left behind.
    @Test(.timeLimit(.minutes(1))) func shutdownLeavesNoProcessOfTheGroup() async throws {
        let runtime = Self.runtime()
        var observed = Observed(runtime)
        let runner = Self.runner("sleep 1000 & echo $!; exec sleep 1000", clock: ManualClock())
        try await runner.start(into: runtime)
        let events = await observed.until { $0.kind == .log && Int32($0.body ?? "") != nil }
        let background = try #require(events.last?.body.flatMap { Int32($0) })
        await runner.shutdown()
        // The background sleep held the output: the output ended by itself, so it has exited too (a process's
        // descriptors close as it exits).
        #expect(!runner.outputCutOff)
        #expect(runner.lastEnding?.endedByErrorwatch == true)
        _ = background
    }

    @Test func aMissingCommandFailsTheStart() async {
        let runtime = Self.runtime()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let runner = ChildRunner(
            configuration: ChildRunner.Configuration(
                command: ChildProcess.Command(arguments: ["no-such-command-errorwatch"], environment: [:])),
            clock: ErasedClock(ManualClock())
        ) { ["PATH": path] }
        await #expect(throws: ChildProcess.StartError.self) { try await runner.start(into: runtime) }
    }

    @Test func keysAreListedAsTheCommandsOwn() {
        let runner = Self.runner("echo it's", clock: ManualClock())
        let app = runner.attachment.attachedApp
        #expect(app.title == "Your command (sh)")
        #expect(runner.attachment.bindings.map(\.command) == ["restart", "toggle", "interrupt"])
        #expect(runner.commandLine == #"sh -c 'echo it'\''s'"#)
    }
}
