import ArgumentParser
import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `errorwatch demo --connect ENDPOINT`: the simulated app on its own, sending its errors and logs to a dashboard
/// started with `--listen`, so the two-terminal setup can be tried at once.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the simulated app on its own and send its errors to a dashboard (errorwatch --listen).",
        discussion: """
            In a terminal, press the demo keys here (l i o w x s b S a r; q quits) and watch the dashboard. \
            Without a terminal, --keys are pressed every --interval and the app runs for --duration.
            """)

    @Option(
        help: ArgumentHelp("Where the dashboard listens: unix:PATH, tcp:PORT or tcp:HOST:PORT.", valueName: "endpoint"))
    var connect: String

    @Option(help: "The service.name this app reports.")
    var name = "errorwatch-demo"

    @Option(help: "Seed for the app's random choices.")
    var seed: UInt64 = 7

    @Option(help: ArgumentHelp("Keys to press, one every --interval (for scripts).", valueName: "keys"))
    var keys = ""

    @Option(help: "Time between scripted keys.", transform: parseDuration)
    var interval: Duration = .seconds(1)

    @Option(help: "Stop after this long (default: until q, end of input, or a signal).", transform: parseDuration)
    var duration: Duration?

    @Option(name: .customLong("storm-rate"), help: "Errors per second during an error storm (S).")
    var stormRate = 5_000

    @Option(name: .customLong("storm-duration"), help: "How long an error storm lasts.", transform: parseDuration)
    var stormDuration: Duration = .seconds(3)

    func validate() throws {
        do { _ = try Endpoint(parsing: connect) } catch { throw ValidationError("--connect \(connect): \(error)") }
        guard stormRate >= 100, stormRate <= 10_000_000 else {
            throw ValidationError("--storm-rate must be 100…10000000")
        }
        if case .failure(let error) = Key.parseSequence(keys) { throw ValidationError(error.description) }
    }

    func run() throws {
        let endpoint = try Endpoint(parsing: connect)
        let scripted = try Key.parseSequence(keys).get()
        let source = SourceInfo(serviceName: name)
        let stream = ErrorStream()
        let forwarder = ErrorForwarder(endpoint: endpoint, source: source, stream: stream)
        let encoder = WireEncoder(source: source)
        forwarder.start()
        let interactive = isatty(STDIN_FILENO) == 1
        let app = DemoApp(
            stream: stream, clock: DemoClock(ContinuousClock()),
            configuration: DemoConfiguration(seed: seed, stormRate: stormRate, stormDuration: stormDuration),
            metrics: DashboardMetrics(), now: { Date() },
            logSink: { record in
                // Errors attached to log calls travel as stream events already.
                guard record.error == nil else { return }
                forwarder.send(
                    encoder.wireEvent(
                        level: record.level, message: record.message, label: record.label,
                        metadata: record.metadata, error: nil, time: record.timestamp))
            },
            flowSink: { status in
                if interactive { print("  \(status.name): \(status.state) — \(status.lastOutcome)\r") }
            })
        print("errorwatch demo: sending to \(endpoint) as \(name), pid \(source.pid)")
        if interactive {
            // The same key table as the dashboard's.
            let keys = Keymap.standard.demoBindings.map { "\($0.keyLabel) \($0.summary.lowercased())" }
            print("keys: " + keys.joined(separator: ", ") + ", q quit")
        }

        let console = Console(raw: interactive)
        defer { console.restore() }
        app.start()
        let clock = ContinuousClock()
        let started = clock.now
        var pending = scripted[...]
        var nextKeyAt = started.advanced(by: interval)
        loop: while true {
            if let duration, started.duration(to: clock.now) >= duration { break }
            let timeout = pending.isEmpty ? Duration.milliseconds(250) : max(.zero, clock.now.duration(to: nextKeyAt))
            switch console.next(timeout: timeout) {
            case .quit:
                break loop
            case .endOfInput:
                // Piped input ran out: with nothing scripted and no duration, there is nothing left to do.
                if pending.isEmpty, duration == nil { break loop }
            case .key(let key):
                if key == .character("q") { break loop }
                press(key, on: app, echo: interactive)
            case .timeout:
                break
            }
            if !pending.isEmpty, clock.now >= nextKeyAt {
                press(pending.removeFirst(), on: app, echo: true)
                nextKeyAt = nextKeyAt.advanced(by: interval)
            }
        }
        app.stop()
        stream.finish()
        runBlocking { await forwarder.shutdown() }
        let statistics = forwarder.statistics
        print(
            "errorwatch demo: \(statistics.sent) events sent, \(statistics.dropped) dropped,",
            "\(statistics.reconnects) reconnects")
    }

    private func press(_ key: Key, on app: DemoApp, echo: Bool) {
        guard case .demo(let trigger)? = Keymap.standard.command(for: key) else { return }
        if echo, let binding = Keymap.standard.binding(for: key) { print("▶ \(binding.summary)\r") }
        app.trigger(trigger)
    }
}

/// The demo's own terminal: keys without echo or line buffering (signals still work), restored on exit and on
/// SIGINT/SIGTERM/SIGHUP.
final class Console {
    enum Input: Equatable {
        case key(Key)
        case timeout
        case endOfInput
        case quit
    }

    private var original = termios()
    private let raw: Bool
    private let wake: [Int32]
    private var inputOpen = true

    init(raw: Bool) {
        self.raw = raw
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        // The write end must never block a signal handler.
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        wake = fds
        consoleSignalFD.store(fds[1], ordering: .relaxed)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(consoleSignalFD.load(ordering: .relaxed), &byte, 1)
            }
        }
        if raw, tcgetattr(STDIN_FILENO, &original) == 0 {
            var changed = original
            changed.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &changed)
        }
    }

    /// Waits up to `timeout` for a key, end of input or a termination signal.
    func next(timeout: Duration) -> Input {
        var fds = [
            pollfd(fd: inputOpen ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
        ]
        let (seconds, attoseconds) = timeout.components
        let millis = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        guard poll(&fds, 2, millis) > 0 else { return .timeout }
        if fds[1].revents != 0 { return .quit }
        var byte: UInt8 = 0
        guard read(STDIN_FILENO, &byte, 1) == 1 else {
            inputOpen = false
            return .endOfInput
        }
        guard byte >= 0x20, byte < 0x7F else { return .timeout }
        return .key(.character(Character(Unicode.Scalar(byte))))
    }

    func restore() {
        if raw { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
        consoleSignalFD.store(-1, ordering: .relaxed)
        for fd in wake { close(fd) }
    }
}

/// The console's wake pipe, read by its signal handlers (an atomic, so the handler touches nothing else).
private let consoleSignalFD = Atomic<Int32>(-1)
