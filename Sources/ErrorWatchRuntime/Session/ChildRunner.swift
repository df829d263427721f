import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `errorwatch run -- COMMAND`: the command as the dashboard's child, watched from its first line to its exit.
///
/// Its standard output (a pseudo-terminal, so it line-buffers) and error are read line by line through the log
/// reader, as files are (levels, JSON shapes, traces folded into their error), each line marked with its stream
/// (`log.iostream`); its start and exit are log lines and a row in the Status pane; an abnormal exit is an error
/// whose breadcrumbs are its last lines. It runs in a process group of its own: ``restart()``, ``toggle()`` and
/// ``shutdown()`` end the whole group (SIGTERM, then SIGKILL after the grace period), and whatever the child left
/// running in its group when it exited is ended too. ``attachment`` gives the keys: `r` restarts, `x` stops or
/// starts, `i` interrupts (SIGINT; Ctrl-C stays the dashboard's).
///
/// A source like any other: started after the receivers (so the environment can name their ports), stopped
/// before them (so an SDK flushing on SIGTERM still reaches them).
public final class ChildRunner: DashboardSource {
    /// When the child is started again after it exits by itself.
    public enum RestartPolicy: String, Sendable, Hashable, CaseIterable {
        /// After an exit with a non-zero status or a signal.
        case onFailure = "on-failure"
        /// After every exit.
        case always
        /// Never: it stays ended until `r` or `x`.
        case never
    }

    /// What to run and how.
    public struct Configuration: Sendable {
        /// The command; its environment is replaced by ``ChildRunner``'s `environment` at each start.
        public var command: ChildProcess.Command
        /// When to start it again by itself.
        public var restart: RestartPolicy = .never
        /// How long SIGTERM has before SIGKILL.
        public var gracePeriod: Duration = .seconds(3)
        /// The shape of its lines.
        public var format: LogFormat = .auto
        /// Waits between automatic restarts after failures in a row (a run of 10 s or more resets it).
        public var backoff = Backoff.exponential(
            initial: .seconds(1), multiplier: 2, maximum: .seconds(30), jitter: 0)

        /// A configuration; see the properties.
        public init(command: ChildProcess.Command, restart: RestartPolicy = .never, format: LogFormat = .auto) {
            self.command = command
            self.restart = restart
            self.format = format
        }
    }

    /// What the user or the session asked for.
    enum Wanted: Equatable {
        case running
        case stopped
        case restart
        case shutdown
    }

    struct State {
        var run = 0
        var child: ChildProcess?
        var pid: Int32?
        var startedAt: Date?
        var wanted = Wanted.running
        /// Whether the current run was signalled by us (its end is no failure of its own).
        var endedByUs = false
        var failuresInARow = 0
        var pendingRestart: Task<Void, Never>?
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
        var lastEnding: Ending?
        /// Whether the last run's output had to be cut off: something kept it open after the group was killed.
        var outputCutOff = false
    }

    /// How a run ended: its termination, and whether errorwatch ended it (`r`, `x`, `q`).
    public struct Ending: Sendable, Hashable {
        /// Its status or signal.
        public var termination: ChildProcess.Termination
        /// Whether errorwatch signalled it (then its end is no failure of its own).
        public var endedByErrorwatch: Bool
    }

    /// The configuration in force.
    public let configuration: Configuration
    private let environment: @Sendable () -> [String: String]
    private let state = Mutex(State())
    private let runtime: Mutex<DashboardRuntime?> = Mutex(nil)
    private let clock: ErasedClock

    /// A runner of `configuration`'s command with the environment `environment` returns at each start (called
    /// after the receivers started, so it can name their ports); `clock` times the grace period and restarts.
    public init(
        configuration: Configuration, clock: ErasedClock,
        environment: @escaping @Sendable () -> [String: String]
    ) {
        self.configuration = configuration
        self.clock = clock
        self.environment = environment
    }

    /// The command's name, as its lines' service and its row.
    public var name: String { configuration.command.name }

    /// The child's process id while it runs.
    public var pid: Int32? { state.withLock { $0.child?.pid } }

    /// Whether the last run's output had to be cut off (a process outside its group kept it open); when not, every
    /// process that held it, the whole group included, has exited.
    var outputCutOff: Bool { state.withLock { $0.outputCutOff } }

    /// How the last run ended, once one did.
    public var lastEnding: Ending? { state.withLock { $0.lastEnding } }

    /// The keys of the attached app (`r`, `x`, `i`), listed in `?` under the command's name.
    public var attachment: AppAttachment {
        AppAttachment(
            name: "run", title: "Your command (\(name))",
            bindings: [
                .init(key: .character("r"), command: "restart", summary: "Restart the command", hint: "restart"),
                .init(key: .character("x"), command: "toggle", summary: "Stop the command, or start it again"),
                .init(key: .character("i"), command: "interrupt", summary: "Interrupt the command (SIGINT)"),
            ],
            start: {}, stop: {},
            perform: { [self] command in
                switch command {
                case "restart": restart()
                case "toggle": toggle()
                case "interrupt": interrupt()
                default: break
                }
            })
    }

    // MARK: DashboardSource

    /// Starts the command; throws when it cannot be started at all (no such program), before the screen is taken.
    public func start(into runtime: DashboardRuntime) async throws {
        self.runtime.withLock { $0 = runtime }
        try launch()
    }

    /// Ends the command and its process group (SIGTERM, then SIGKILL after the grace period) and waits for it.
    public func shutdown() async {
        let child = state.withLock { state -> ChildProcess? in
            state.wanted = .shutdown
            state.pendingRestart?.cancel()
            state.pendingRestart = nil
            return state.child
        }
        guard child != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state -> Bool in
                guard state.child != nil else { return false }
                state.exitWaiters.append(continuation)
                return true
            }
            if running { terminate() } else { continuation.resume() }
        }
    }

    // MARK: Keys

    /// Ends the command (SIGTERM, then SIGKILL) and starts it again; starts it when it is not running.
    public func restart() {
        let running = state.withLock { state -> Bool in
            guard state.wanted != .shutdown else { return true }
            state.pendingRestart?.cancel()
            state.pendingRestart = nil
            state.failuresInARow = 0
            if state.child != nil { state.wanted = .restart }
            return state.child != nil
        }
        if running { terminate() } else { launchReporting() }
    }

    /// Stops the command when it runs; starts it when it does not.
    public func toggle() {
        let running = state.withLock { state -> Bool in
            guard state.wanted != .shutdown else { return true }
            state.pendingRestart?.cancel()
            state.pendingRestart = nil
            state.failuresInARow = 0
            state.wanted = state.child != nil ? .stopped : .running
            return state.child != nil
        }
        if running { terminate() } else { launchReporting() }
    }

    /// Sends SIGINT to the command's process group, as Ctrl-C in its own terminal would.
    public func interrupt() {
        state.withLock { $0.child }?.signal(SIGINT)
    }

    // MARK: Running

    /// SIGTERM to the group now, SIGKILL after the grace period if the same run is still going.
    private func terminate() {
        let (child, run) = state.withLock { state -> (ChildProcess?, Int) in
            if state.child != nil { state.endedByUs = true }
            return (state.child, state.run)
        }
        guard let child else { return }
        child.signal(SIGTERM)
        let clock = self.clock
        let grace = configuration.gracePeriod
        Task { [self] in
            try? await clock.sleep(for: grace)
            let same = state.withLock { $0.run == run && $0.child != nil }
            if same { child.signal(SIGKILL) }
        }
    }

    private func launchReporting() {
        do throws(ChildProcess.StartError) {
            try launch()
        } catch {
            post(status: "not started: \(error.reason)", health: .failing)
            post(log: "errorwatch: \(error)", severity: .error)
        }
    }

    private func launch() throws(ChildProcess.StartError) {
        var command = configuration.command
        command.environment = environment()
        let child = try ChildProcess.start(command)
        // Should errorwatch die of a signal, its command must not outlive it (it would hold its ports).
        CrashCleanup.killGroupOnAbnormalExit(child.pid)
        let now = runtimeNow()
        let run = state.withLock { state -> Int in
            state.run += 1
            state.outputCutOff = false
            state.child = child
            state.pid = child.pid
            state.startedAt = now
            state.endedByUs = false
            if state.wanted != .shutdown { state.wanted = .running }
            return state.run
        }
        post(log: "errorwatch: started \(commandLine) (pid \(child.pid))", severity: .info)
        post(status: "running (pid \(child.pid))", health: .ok)
        let readers = DispatchGroup()
        let output = StreamReader(descriptor: child.output, format: configuration.format, closeWhenDone: true)
        let errors = StreamReader(descriptor: child.errors, format: configuration.format, closeWhenDone: true)
        for (reader, stream) in [(output, "stdout"), (errors, "stderr")] {
            readers.enter()
            let thread = Thread { [self] in
                reader.run { batch in deliver(batch, stream: stream, pid: child.pid) }
                readers.leave()
            }
            thread.name = "errorwatch run \(stream)"
            thread.start()
        }
        let waiter = Thread { [self] in
            let termination = child.waitForExit()
            // Its last lines first: the readers end when every writer of its output is gone. Something it started
            // may hold them open: that is ended with the group, after a moment for the lines in flight.
            if readers.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
                child.killGroup()
                if readers.wait(timeout: .now() + .seconds(2)) == .timedOut {
                    output.stop()
                    errors.stop()
                    readers.wait()
                    state.withLock { $0.outputCutOff = true }
                }
            }
            child.killGroup()
            CrashCleanup.forgetGroup(child.pid)
            ended(run: run, termination: termination)
        }
        waiter.name = "errorwatch run wait"
        waiter.start()
    }

    private func deliver(_ batch: StreamReader.Batch, stream: String, pid: Int32) {
        guard let ingest = runtime.withLock({ $0?.ingest }) else { return }
        let from = "\(stream) of \(name)"
        for var event in batch.events {
            event.attributes["log.iostream"] = stream
            if event.source == nil || event.source?.isEmpty == true { event.source = stream }
            if event.serviceName == nil { event.serviceName = name }
            if event.pid == nil { event.pid = Int(pid) }
            ingest.ingest(event, from: from, channel: .process)
        }
    }

    private func ended(run: Int, termination: ChildProcess.Termination) {
        let now = runtimeNow()
        let (wanted, byUs, startedAt, pid) = state.withLock { state in
            state.child = nil
            state.lastEnding = Ending(termination: termination, endedByErrorwatch: state.endedByUs)
            return (state.wanted, state.endedByUs, state.startedAt, state.pid)
        }
        report(termination, byUs: byUs, pid: pid, at: now)
        let ranLong = startedAt.map { now.timeIntervalSince($0) >= 10 } ?? false
        switch wanted {
        case .restart:
            state.withLock { $0.wanted = .running }
            launchReporting()
        case .running:
            let again =
                configuration.restart == .always || (configuration.restart == .onFailure && !termination.isSuccess)
            if again { scheduleRestart(failed: !termination.isSuccess, ranLong: ranLong) }
        case .stopped, .shutdown:
            break
        }
        let waiters = state.withLock { state in
            defer { state.exitWaiters = [] }
            return state.exitWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func scheduleRestart(failed: Bool, ranLong: Bool) {
        let delay = state.withLock { state -> Duration in
            state.failuresInARow = failed && !ranLong ? state.failuresInARow + 1 : 0
            return state.failuresInARow == 0
                ? .zero : configuration.backoff.delay(afterAttempt: state.failuresInARow, random: 0)
        }
        if delay > .zero { post(status: "restarting in \(Format.seconds(delay))", health: .degraded) }
        let clock = self.clock
        let task = Task { [self] in
            if delay > .zero {
                do { try await clock.sleep(for: delay) } catch { return }
            }
            let go = state.withLock { state -> Bool in
                state.pendingRestart = nil
                return state.wanted == .running && state.child == nil
            }
            if go { launchReporting() }
        }
        state.withLock { $0.pendingRestart = task }
    }

    private func report(
        _ termination: ChildProcess.Termination, byUs: Bool, pid: Int32?, at now: Date
    ) {
        let text = "\(name) \(termination)"
        if byUs {
            post(log: "errorwatch: \(text) (stopped by errorwatch)", severity: .info)
            post(status: "stopped: \(termination.code)", health: .idle)
        } else if termination.isSuccess {
            post(log: "errorwatch: \(text)", severity: .info)
            post(status: termination.description, health: .idle)
        } else {
            post(status: termination.description, health: .failing)
            var event = WireEvent(
                kind: .error, time: now, serviceName: name, pid: pid.map(Int.init), source: "errorwatch run",
                exceptionType: "ProcessExit", exceptionMessage: text, severity: .critical,
                attributes: ["process.command_line": commandLine])
            // Its last lines are the detail's breadcrumbs: the lines of its service before the exit.
            event.codeText = termination.code
            runtime.withLock { $0 }?.ingest.ingest(event, from: "errorwatch run", channel: .process)
        }
    }

    /// The command as typed, each argument quoted when it needs to be.
    public var commandLine: String {
        configuration.command.arguments.map { argument in
            let plain = !argument.isEmpty
                && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+".contains($0) }
            return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    private func runtimeNow() -> Date { runtime.withLock { $0 }?.now ?? Date() }

    private func post(log text: String, severity: ErrorSeverity) {
        let event = WireEvent(
            kind: .log, time: runtimeNow(), serviceName: name, source: "errorwatch run", severity: severity,
            body: text)
        runtime.withLock { $0 }?.ingest.ingest(event, from: "errorwatch run", channel: .process)
    }

    private func post(status text: String, health: StatusHealth) {
        let event = WireEvent(
            kind: .status, time: runtimeNow(), serviceName: name, statusName: name, statusState: text,
            statusHealth: health, statusDetail: commandLine)
        runtime.withLock { $0 }?.ingest.ingest(event, from: "errorwatch run", channel: .process)
    }
}
