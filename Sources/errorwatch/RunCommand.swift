import ArgumentParser
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchRuntime
import ErrorWatchUI
import ErrorWatchWire
import Foundation

/// `errorwatch run [OPTIONS] [--] COMMAND [ARGS…]`: the dashboard and the command as its child, every channel it
/// reports by received with nothing to configure.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command and watch it: its output, its OpenTelemetry, its Sentry events, its exit.",
        discussion: """
            Starts receivers on the SDKs' default local ports when they are free (OTLP/gRPC 4317, OTLP/HTTP 4318, \
            Sentry/Spotlight 8969; else any free port) and an NDJSON socket, then the command with an environment \
            that points its SDKs at them without overriding what you set: OTEL_EXPORTER_OTLP_ENDPOINT, \
            OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, SENTRY_SPOTLIGHT and ERRORWATCH_ENDPOINT. Its stdout (a \
            pseudo-terminal, so it line-buffers) and stderr are read like a log file; a crash's trace becomes an \
            error with frames and the source lines under the working folder. Keys: r restarts it, x stops or \
            starts it, i interrupts it, q ends it and its process group, then quits. Example:
              errorwatch run -- python3 app.py
              errorwatch run --restart on-failure -- swift run ShopServer --otel
            """)

    @OptionGroup var appearance: AppearanceOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Start it again after it exits by itself: on-failure (a non-zero status or a signal), always, never.",
            valueName: "when"))
    var restart: String = "never"

    @Option(name: .long, help: ArgumentHelp("The folder the command starts in (default: this one).", valueName: "dir"))
    var cwd: String?

    @Option(
        name: .customLong("env"),
        help: ArgumentHelp("Set a variable in the command's environment; wins over errorwatch's. Repeatable.",
            valueName: "KEY=VALUE"))
    var environment: [String] = []

    @Option(
        name: .customLong("otlp-protocol"),
        help: ArgumentHelp("How the command's OpenTelemetry SDK exports: http (http/protobuf) or grpc.",
            valueName: "protocol"))
    var otlpProtocol: String = "http"

    @Option(
        name: .customLong("source-root"),
        help: ArgumentHelp(
            "Show source lines of frames under this folder (default: the command's folder); nothing outside it is "
                + "read.",
            valueName: "dir"))
    var sourceRoot: String?

    @Option(
        name: .customLong("grace"),
        help: ArgumentHelp("How long the command has after SIGTERM before SIGKILL.", valueName: "duration"),
        transform: parseDuration)
    var grace: Duration = .seconds(3)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The shape of the command's output lines: \(LogFormat.names). Default: auto, per line.",
            valueName: "name"))
    var format: String = "auto"

    @Option(name: .long, help: ArgumentHelp("Write every event shown to an NDJSON recording.", valueName: "file"))
    var record: String?

    @Flag(help: "After exit, print run statistics.")
    var stats = false

    @OptionGroup var store: StoreOptions

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("The command and its arguments (after `--` when they start with a dash).",
            valueName: "command"))
    var command: [String] = []

    /// The command without a leading `--`.
    var commandArguments: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

    var restartPolicy: ChildRunner.RestartPolicy? { ChildRunner.RestartPolicy(rawValue: restart) }

    var exportProtocol: RunEnvironment.OTLPProtocol? {
        switch otlpProtocol.lowercased() {
        case "http", "http/protobuf": .httpProtobuf
        case "grpc": .grpc
        default: nil
        }
    }

    /// `--env` values as pairs.
    var overrides: [(key: String, value: String)] {
        get throws {
            try environment.map { pair in
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw ValidationError("--env \(pair): expected KEY=VALUE")
                }
                return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
            }
        }
    }

    func validate() throws {
        // The command captures everything from its first word, `--help` included when it comes first.
        if let first = command.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest(self) }
        guard !commandArguments.isEmpty else {
            throw ValidationError("no command to run: errorwatch run -- COMMAND [ARGS…]")
        }
        guard restartPolicy != nil else {
            throw ValidationError("--restart \(restart): expected on-failure, always or never")
        }
        guard exportProtocol != nil else { throw ValidationError("--otlp-protocol \(otlpProtocol): expected http or grpc") }
        guard LogFormat(name: format) != nil else {
            throw ValidationError("--format \(format): expected one of \(LogFormat.names)")
        }
        _ = try overrides
    }

    func run() throws {
        let launched = ContinuousClock.now
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        store.attach(to: runtime)
        let folder = cwd ?? FileManager.default.currentDirectoryPath
        let root = sourceRoot ?? folder
        if let lines = SourceLines(root: root) {
            runtime.ingest.showSourceLines(lines)
        } else if sourceRoot != nil {
            printError("errorwatch: --source-root \(root) is not a folder; no source lines are shown")
        }
        // The SDKs' default ports when free, so an app configured for them needs nothing; else any free port.
        let otlp = [
            OTLPEndpoint(port: LocalPort.preferred(4317), transport: .grpc),
            OTLPEndpoint(port: LocalPort.preferred(4318), transport: .http),
        ]
        let sentry = [SentryEndpoint(port: LocalPort.preferred(8969))]
        let external = ExternalSources(
            listen: [.tcp(host: Endpoint.defaultHost, port: 0)], tail: [], format: LogFormat(name: format) ?? .auto,
            otlp: otlp, ingest: runtime.ingest, clock: runtime.clock, sentry: sentry)
        let inherited = ProcessInfo.processInfo.environment
        let overrides = try self.overrides
        let otlpProtocol = exportProtocol ?? .httpProtobuf
        var configuration = ChildRunner.Configuration(
            command: ChildProcess.Command(arguments: commandArguments, environment: [:], workingDirectory: cwd),
            restart: restartPolicy ?? .never, format: LogFormat(name: format) ?? .auto)
        configuration.gracePeriod = grace
        let name = configuration.command.name
        let child = ChildRunner(configuration: configuration, clock: runtime.clock) {
            RunEnvironment.make(
                inherited: inherited, overrides: overrides, receivers: external.runReceivers,
                otlpProtocol: otlpProtocol, serviceName: name)
        }
        runtime.attach(child.attachment)
        try runDashboard(
            runtime: runtime, sources: [external, child], appearance: appearance, record: record, stats: stats,
            launched: launched)
        // After the screen: how the command ended by itself, if it did not end well.
        if let ending = child.lastEnding, !ending.endedByErrorwatch, !ending.termination.isSuccess {
            printError("errorwatch: \(child.commandLine) \(ending.termination)")
        }
    }
}

extension RunCommand {
    /// The command's keys as the docs list them (`Your command (COMMAND)`).
    static var attachedApp: AttachedApp {
        ChildRunner(
            configuration: ChildRunner.Configuration(
                command: ChildProcess.Command(arguments: ["COMMAND"], environment: [:])),
            clock: ErasedClock(ContinuousClock())
        ) { [:] }.attachment.attachedApp
    }
}

extension ExternalSources {
    /// The receivers as the child's environment names them: their bound ports.
    var runReceivers: RunEnvironment.Receivers {
        RunEnvironment.Receivers(
            otlpHTTP: boundOTLPEndpoints.first { $0.transport == .http }?.port,
            otlpGRPC: boundOTLPEndpoints.first { $0.transport == .grpc }?.port,
            sentry: boundSentryEndpoints.first?.port, ndjson: boundEndpoints.first)
    }
}
