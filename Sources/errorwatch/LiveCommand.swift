import ArgumentParser
import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchRuntime
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The default command: the live dashboard, watching the simulated app running inside it, or other processes
/// (`--listen`, `--tail`).
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run the live dashboard (the default command).",
        discussion: """
            Without --listen, --tail or `-`, a simulated app runs inside the dashboard. With them, the dashboard \
            watches other processes instead (add --demo to keep the simulated app too). Lines may be our NDJSON, \
            pino, bunyan, zap, logrus, structlog, Serilog CLEF, GELF, python-json-logger, logfmt or plain text with \
            stack traces (docs/formats.md). Try it with two terminals:
              errorwatch --listen unix:/tmp/errorwatch.sock
              errorwatch demo --connect unix:/tmp/errorwatch.sock
            """)

    @OptionGroup var appearance: AppearanceOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Accept NDJSON producers on unix:PATH, tcp:PORT (loopback) or tcp:HOST:PORT, OpenTelemetry logs, "
                + "metrics and traces over OTLP/HTTP on otlp:PORT (loopback) or otlp:HOST:PORT or over OTLP/gRPC on "
                + "otlp-grpc:PORT (loopback) or otlp-grpc:HOST:PORT, or Sentry SDKs on sentry:PORT (loopback) or "
                + "sentry:HOST:PORT. Repeatable.",
            valueName: "endpoint"))
    var listen: [String] = []

    @Flag(
        name: .customLong("otlp"),
        help: """
            Receive OpenTelemetry as an SDK with no configuration sends it: OTLP/gRPC on loopback port 4317 and \
            OTLP/HTTP on 4318 (as --listen otlp-grpc:4317 --listen otlp:4318).
            """)
    var otlpDefaults = false

    @Flag(
        name: .customLong("spotlight"),
        help: """
            Receive Sentry SDKs as Spotlight's sidecar does: on loopback port 8969 (/stream and \
            /api/PROJECT/envelope/), where `sentry_sdk.init(spotlight=True)` and SENTRY_SPOTLIGHT=1 send (as \
            --listen sentry:8969).
            """)
    var spotlightDefaults = false

    @Option(
        name: .customLong("source-root"),
        help: ArgumentHelp(
            "Read errors' stack traces into frames and show the source lines of those under this folder; nothing "
                + "outside it is read.",
            valueName: "dir"))
    var sourceRoot: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Follow a growing log file across rotation, or read a named pipe until it ends. Repeatable.",
            valueName: "file"))
    var tail: [String] = []

    @Argument(
        help: ArgumentHelp(
            "Log files to read from their beginning, then follow (`errorwatch app.log`; `.gz` files are inflated); "
                + "`-` reads events from standard input (`producer | errorwatch -`); keys come from the terminal.",
            valueName: "file"))
    var inputs: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many of a --tail file's last lines to read before following it: a number, or `all`. Default: 1000.",
            valueName: "n"))
    var lines: String = "1000"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many message templates the Patterns view keeps; lines of further templates are counted.",
            valueName: "n"))
    var patterns = PatternsState.defaultCapacity

    @Flag(name: .customLong("stdin"), help: "Read events from standard input, as `-` does.")
    var readsStandardInput = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The shape of the lines read from --tail, --listen and stdin: \(LogFormat.names). Default: auto, per line.",
            valueName: "name"))
    var format: String = "auto"

    @Option(
        name: .customLong("max-connections"),
        help: """
            Connections each --listen endpoint holds at once; at the limit the longest unfinished line is evicted \
            for a newcomer, or newcomers wait in the backlog.
            """)
    var maxConnections = 256

    @Option(
        name: .customLong("partial-line-budget"),
        help: ArgumentHelp(
            "Bytes of unfinished lines all connections may hold; over it the largest holder is closed.",
            valueName: "bytes"),
        transform: parseByteCount)
    var partialLineBudget = 16 * 1024 * 1024

    @Option(
        name: .customLong("stall-timeout"),
        help: ArgumentHelp(
            "How long a line may take from its first byte to its newline before the connection is closed (0s: never).",
            valueName: "duration"),
        transform: parseDuration)
    var stallTimeout: Duration = .seconds(10)

    @Option(
        name: .customLong("otlp-body-budget"),
        help: ArgumentHelp(
            "Bytes of OTLP request bodies all connections may hold at once; over it a request is answered 503 with "
                + "Retry-After (413 when one body alone is larger).",
            valueName: "bytes"),
        transform: parseByteCount)
    var otlpBodyBudget = 64 * 1024 * 1024

    @Option(
        name: .customLong("trace-budget"),
        help: ArgumentHelp(
            "Spans the trace store keeps (OTLP traces); over it the oldest traces are evicted. (default: 50000)",
            valueName: "spans"))
    var traceBudget = TraceStore.Budget().spans

    @Option(
        name: .customLong("trace-budget-bytes"),
        help: ArgumentHelp(
            "Bytes of spans the trace store keeps; over it the oldest traces are evicted. (default: 32MiB)",
            valueName: "bytes"),
        transform: parseByteCount)
    var traceBudgetBytes = TraceStore.Budget().bytes

    @Option(
        name: .customLong("sentry-key"),
        help: ArgumentHelp(
            "The sentry_key Sentry SDKs must send to a sentry: endpoint (default: any key); a wrong one is answered "
                + "401, and 429 with Retry-After past 20 wrong keys in 10 s from one address.",
            valueName: "key"))
    var sentryKey: String?

    @Option(name: .long, help: ArgumentHelp("Write every event shown to an NDJSON recording.", valueName: "file"))
    var record: String?

    @Flag(help: "Run the simulated app even with --listen or --tail.")
    var demo = false

    @Option(name: .customLong("storm-rate"), help: "Errors per second during an error storm (S).")
    var stormRate = 5_000

    @Option(
        name: .customLong("storm-duration"), help: "How long an error storm lasts, e.g. 3s.", transform: parseDuration)
    var stormDuration: Duration = .seconds(3)

    @Flag(help: "After exit, print run statistics: frames, first-frame time, events, peak memory.")
    var stats = false

    @OptionGroup var store: StoreOptions

    /// Whether standard input carries events (`-` or `--stdin`).
    var watchesStandardInput: Bool { readsStandardInput || inputs.contains("-") }

    /// The files named on the command line, read from their beginning.
    var files: [String] { inputs.filter { $0 != "-" } }

    /// Where a `--tail` file starts: its last `--lines` lines, or its beginning for `all`.
    var tailStart: FileTailer.StartPosition {
        if lines.lowercased() == "all" { return .beginning }
        return .lastLines(Int(lines) ?? 1000)
    }

    func validate() throws {
        guard patterns >= 1, patterns <= 100_000 else { throw ValidationError("--patterns must be 1…100000") }
        guard lines.lowercased() == "all" || (Int(lines).map { $0 >= 0 } ?? false) else {
            throw ValidationError("--lines \(lines): expected a number of lines (0 or more) or `all`")
        }
        guard LogFormat(name: format) != nil else {
            throw ValidationError("--format \(format): expected one of \(LogFormat.names)")
        }
        guard maxConnections >= 1, maxConnections <= 100_000 else {
            throw ValidationError("--max-connections must be 1…100000")
        }
        guard traceBudget >= 1, traceBudget <= 100_000_000 else {
            throw ValidationError("--trace-budget must be 1…100000000 spans")
        }
        guard traceBudgetBytes >= 1 else { throw ValidationError("--trace-budget-bytes must be at least 1 byte") }
        guard stormRate >= 100, stormRate <= 10_000_000 else {
            throw ValidationError("--storm-rate must be 100…10000000")
        }
        if let sentryKey, sentryKey.isEmpty || sentryKey.contains(where: { $0 == "," || $0.isWhitespace }) {
            throw ValidationError("--sentry-key must be a non-empty key without spaces or commas")
        }
        let endpoints = try listenEndpoints
        if sentryKey != nil, !spotlightDefaults, !endpoints.contains(where: { $0.sentry != nil }) {
            throw ValidationError("--sentry-key needs a --listen sentry:PORT endpoint or --spotlight")
        }
    }

    /// The `--listen` values, each sorted by its scheme (a malformed one is a usage error naming it).
    var listenEndpoints: [ListenEndpoint] {
        get throws {
            try listen.map { text in
                do { return try ListenEndpoint(parsing: text) } catch { throw ValidationError("--listen \(text): \(error)") }
            }
        }
    }

    /// The listeners' budgets from the command line.
    var listenerConfiguration: FeedListener.Configuration {
        var configuration = FeedListener.Configuration()
        configuration.maximumConnections = maxConnections
        configuration.partialLineBudget = partialLineBudget
        configuration.stalledLineTimeout = stallTimeout == .zero ? nil : stallTimeout
        return configuration
    }

    /// The OTLP endpoints: `--listen otlp:…` and `otlp-grpc:…`, then `--otlp`'s two.
    var otlpEndpoints: [OTLPEndpoint] {
        get throws {
            var endpoints = try listenEndpoints.compactMap(\.otlp)
            if otlpDefaults {
                endpoints.append(OTLPEndpoint(port: 4317, transport: .grpc))
                endpoints.append(OTLPEndpoint(port: 4318, transport: .http))
            }
            return endpoints
        }
    }

    /// The OTLP receivers' limits from the command line.
    var otlpLimits: OTLPReceiver.Limits {
        OTLPReceiver.Limits(maximumConnections: maxConnections, bodyBudgetBytes: otlpBodyBudget)
    }

    func run() throws {
        let launched = ContinuousClock.now
        let listening = try listenEndpoints
        let endpoints = listening.compactMap(\.lines)
        let otlp = try otlpEndpoints
        let sentry = listening.compactMap(\.sentry) + (spotlightDefaults ? [SentryEndpoint(port: 8969)] : [])
        let watchesOthers =
            !endpoints.isEmpty || !otlp.isEmpty || !sentry.isEmpty || !tail.isEmpty || !files.isEmpty
            || watchesStandardInput
        let runtime = DashboardRuntime(
            clock: ErasedClock(ContinuousClock()), startDate: Date(),
            traceBudget: TraceStore.Budget(spans: traceBudget, bytes: traceBudgetBytes))
        store.attach(to: runtime)
        if let sourceRoot {
            guard let lines = SourceLines(root: sourceRoot) else {
                printError("errorwatch: --source-root \(sourceRoot) is not a folder")
                throw ExitCode(2)
            }
            runtime.ingest.showSourceLines(lines)
        }
        if !watchesOthers || demo {
            let configuration = DemoConfiguration(
                seed: appearance.seed, stormRate: stormRate, stormDuration: stormDuration)
            runtime.attach(DemoAttachment.make(in: runtime, configuration: configuration))
        }
        let external = ExternalSources(
            listen: endpoints, tail: tail, open: files, tailStart: tailStart, standardInput: watchesStandardInput,
            format: LogFormat(name: format) ?? .auto,
            otlp: otlp, ingest: runtime.ingest, clock: runtime.clock, configuration: listenerConfiguration,
            otlpLimits: otlpLimits, sentry: sentry, sentryKey: sentryKey)
        try runDashboard(
            runtime: runtime, sources: [external], appearance: appearance, record: record, stats: stats,
            launched: launched, patternCapacity: patterns)
    }
}

/// `errorwatch replay FILE`: plays a recording into the live dashboard.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Play an NDJSON recording (from --record) into the live dashboard.")

    @OptionGroup var appearance: AppearanceOptions

    @Argument(help: ArgumentHelp("The recording to play.", valueName: "file"))
    var file: String

    @Option(help: "Playback speed, from 0.01 to 10000: 4 plays four times as fast.")
    var speed: Double = 1

    @Option(
        name: .customLong("max-gap"),
        help: ArgumentHelp(
            "Play a silence longer than this (in playback time) as this long, and mark it; none or 0 plays every "
                + "silence in full. (default: 5s)",
            valueName: "duration"),
        transform: parseMaximumGap)
    var maximumGap = MaximumGap(limit: RecordingPlayer.defaultMaximumGap)

    @Flag(help: "After exit, print run statistics.")
    var stats = false

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "Count the recording's errors into this store, each once however often it is played (default: none).",
            valueName: "path"))
    var storePath: String?

    func validate() throws {
        try validateSpeed(speed)
    }

    func run() throws {
        let launched = ContinuousClock.now
        let player: RecordingPlayer
        do {
            player = try RecordingPlayer(path: file, speed: speed, maximumGap: maximumGap.limit)
        } catch {
            printError("errorwatch: \(error)")
            throw ExitCode(1)
        }
        let runtime = DashboardRuntime(
            clock: ErasedClock(ContinuousClock()), startDate: player.startDate ?? Date(), timeScale: speed)
        if let storePath { StoreOptions.attach(path: storePath, to: runtime) }
        try runDashboard(
            runtime: runtime, sources: [ReplaySource(player: player)], appearance: appearance, record: nil,
            stats: stats, launched: launched)
    }
}

/// Runs the live dashboard on this thread until `q` or a termination signal, then restores the terminal: the
/// wiring of a ``DashboardSession`` to ncurses and the command line.
func runDashboard(
    runtime: DashboardRuntime, sources: [any DashboardSource], appearance: AppearanceOptions, record: String?,
    stats: Bool, launched: ContinuousClock.Instant, patternCapacity: Int = PatternsState.defaultCapacity
) throws {
    // Frames are timed from here, so the first frame's time counts the whole start-up.
    let launchClock = ErasedClock(ContinuousClock())
    // The locale comes first: ncursesw needs it to draw anything beyond ASCII.
    setlocale(LC_ALL, "")
    // Keys come from stdin, or from the controlling terminal when stdin is a pipe (`producer | errorwatch -`).
    guard isatty(STDOUT_FILENO) == 1, NCursesBackend.hasKeyboard else {
        printError("errorwatch: standard output is not a terminal; use `errorwatch render` to print the screen as text")
        throw ExitCode(2)
    }
    let (monochrome, selection) = appearance.resolve()
    let session: DashboardSession
    do {
        session = try DashboardSession(runtime: runtime, sources: sources, recordingPath: record)
        // Sockets are bound before the screen is taken, so "address in use" is a plain message on a plain terminal.
        try runBlocking { [session] in try await session.start() }
    } catch {
        printError("errorwatch: \(error)")
        throw ExitCode(1)
    }
    let backend: NCursesBackend
    do {
        backend = try NCursesBackend(options: .init(escapeDelay: 25, monochrome: monochrome))
    } catch {
        _ = runBlocking { [session] in await session.stop() }
        printError("errorwatch: \(error)")
        throw ExitCode(error == .notATerminal ? 2 : 1)
    }
    // The status line has room for the first problem only; the full list goes to stderr, which is held while the
    // screen is active and printed after it is restored.
    for problem in selection.problems { printError("errorwatch: theme: \(problem)") }

    var state = DashboardState(
        width: backend.size.width, height: backend.size.height, now: runtime.now, themes: selection.themes,
        colorDepth: monochrome ? .monochrome : backend.colorDepth, unicode: localeIsUTF8(),
        patternCapacity: patternCapacity)
    _ = DashboardReducer.reduce(into: &state, action: .themeSelected(selection.index))
    if let warning = selection.warning { _ = DashboardReducer.reduce(into: &state, action: .statusMessage(warning)) }
    // Where the receivers listen, in the first frame's state (posted, it would sit undrawn in the inbox, which the
    // receivers' admission reads as a dashboard that is behind).
    let receivers = sources.compactMap { $0 as? ExternalSources }.flatMap(\.receiverAddresses)
    if !receivers.isEmpty { _ = DashboardReducer.reduce(into: &state, action: .receiversListening(receivers)) }

    session.run(backend: backend, state: state, clock: launchClock)
    // The terminal first: whatever the shutdown below waits for, the user has their shell back.
    backend.stop()
    let statistics = runBlocking { [session] in await session.stop() }
    if let problem = statistics.recordingProblem { printError("errorwatch: \(problem)") }
    if stats {
        let elapsed = launched.duration(to: .now)
        print(
            """
            errorwatch stats
              run time         \(elapsed.formattedSeconds)
              first frame      \(statistics.firstFrameAt.map { "\((launched.duration(to: .now) - launchClock.now.offset + $0.offset).wholeMilliseconds()) ms after launch" } ?? "none")
              frames drawn     \(statistics.framesDrawn) (peak \(statistics.peakFramesPerSecond) in one second)
              errors added     \(statistics.errorsAdded)
              errors counted   \(statistics.errorsCounted) (Metrics pane total)
              dropped (views)  \(statistics.dropped)
              source events    \(statistics.sourceEvents) (Sources pane, all rows)
              spans received   \(statistics.traces.spans + Int(statistics.traces.evictedSpans + statistics.traces.droppedSpans)) (trace store: \(statistics.traces.spans) held, \(statistics.traces.evictedSpans) evicted, \(statistics.traces.droppedSpans) over a trace's cap)
              recorded         \(statistics.recorded.map { "\($0) events" } ?? "—")
              peak memory      \(peakResidentKilobytes().map { "\($0 / 1024) MB (VmHWM)" } ?? "unknown")
            """)
    }
}
