import ArgumentParser
import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Logging

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
        // Everything the dashboard shows of the demo inside it travels over the wire: errors (the forwarder
        // forwards the stream), log lines, metrics and statuses.
        let app = DemoApp(
            stream: stream, clock: ErasedClock(ContinuousClock()),
            configuration: DemoConfiguration(seed: seed, stormRate: stormRate, stormDuration: stormDuration),
            metrics: ForwardingMetricsFactory(forwarder: forwarder), now: { Date() },
            logHandler: { label in ErrorReportingLogHandler(label: label, stream: stream, forwarder: forwarder) },
            statusSink: { status in
                forwarder.send(
                    encoder.statusEvent(
                        name: status.name, state: status.state, health: status.health,
                        detail: status.detail, time: status.changedAt))
                if interactive { print("  \(status.name): \(status.state) — \(status.detail)\r") }
            })
        print("errorwatch demo: sending to \(endpoint) as \(name), pid \(source.pid)")
        if interactive {
            let keys = DemoApp.keys.map { "\($0.key) \($0.summary.lowercased())" }
            print("keys: " + keys.joined(separator: ", ") + ", q quit")
        }

        let console = RawConsole(raw: interactive)
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
        guard case .character(let character) = key, let action = DemoApp.action(for: character) else { return }
        if echo, let binding = DemoApp.keys.first(where: { $0.key == character }) { print("▶ \(binding.summary)\r") }
        app.perform(action)
    }
}

/// The demo's log handler when it runs on its own: a record that carries an error adds it to the demo's stream
/// (which the forwarder sends as an `error` event, counted and alerted like any error); other records go out as
/// `log` events.
struct ErrorReportingLogHandler: LogHandler {
    var metadata: Logger.Metadata {
        get { forwarding.metadata }
        set { forwarding.metadata = newValue }
    }
    var metadataProvider: Logger.MetadataProvider? {
        get { forwarding.metadataProvider }
        set { forwarding.metadataProvider = newValue }
    }
    var logLevel: Logger.Level {
        get { forwarding.logLevel }
        set { forwarding.logLevel = newValue }
    }

    private let label: String
    private let stream: ErrorStream
    private var forwarding: ForwardingLogHandler

    init(label: String, stream: ErrorStream, forwarder: ErrorForwarder) {
        self.label = label
        self.stream = stream
        forwarding = ForwardingLogHandler(label: label, forwarder: forwarder)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { forwarding[metadataKey: key] }
        set { forwarding[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard let error = event.error else { return forwarding.log(event: event) }
        let flat = event.mergedMetadata(handler: metadata, provider: metadataProvider)
        stream.add(
            error,
            context: ErrorContext(
                source: label, severity: ErrorSeverity(event.level),
                origin: flat["origin"].flatMap(ErrorOrigin.init(rawValue:)) ?? .user,
                attempt: flat["attempt"].flatMap(Int.init), metadata: flat))
    }
}
