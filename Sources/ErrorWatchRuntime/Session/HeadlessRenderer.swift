import ErrorStreaming
import ErrorWatchStore
import ErrorWatchUI
import Foundation

/// Runs the whole dashboard — an attached app or a recording, stream, feeds, store — without a terminal, on a
/// manual clock and a ``SimulationExecutor``, and returns the final screen. The same app, keys, size and duration
/// always give the same screen, which makes it the tool for bug reports, docs and end-to-end tests
/// (`errorwatch render`).
public struct HeadlessRenderer {
    /// What to run and how to draw it.
    public struct Options: Sendable {
        /// Screen columns.
        public var width: Int
        /// Screen rows.
        public var height: Int
        /// Attaches the app to run inside the dashboard, given the runtime (its stream, clock, executor); `nil`
        /// runs none. It must run its tasks on the runtime's executor and sleep on its clock to be reproducible.
        public var app: (@Sendable (DashboardRuntime) -> AppAttachment)?
        /// Keys pressed one after another, evenly spaced over ``duration``.
        public var keys: [Key]
        /// Simulated time from start to the final screen.
        public var duration: Duration
        /// The themes `t` cycles through.
        public var themes: [Theme]
        /// The theme to start with.
        public var themeIndex: Int
        public var colorDepth: ColorDepth
        /// Draw for a UTF-8 locale (braille, box drawing) or ASCII.
        public var unicode: Bool
        /// The wall-clock time at the start; fixed by default so screens are reproducible.
        public var startDate: Date
        /// A status-line message to show from the start (for example a theme warning).
        public var statusMessage: String?
        /// Where `W` saves events; by default `$ERRORWATCH_EXPORT_DIR` or the current folder.
        public var exporter: EventExporter = .fromEnvironment()
        /// A recording to play (`render --from FILE`); the run then starts at the recording's first event.
        public var recording: RecordingPlayer?
        /// A store whose issues the run shows from the start (`render --store PATH`); read, never written.
        public var store: IssueStore?
        /// Jump the clock over quiet time instead of stepping through every sample in it (see ``quietSpan``), so
        /// a run costs the same whatever the silences in it. Off only to check that a jump changes nothing.
        public var skipsQuietTime = true

        /// Options with a fixed start date, so the same options print the same screen.
        public init(
            width: Int = 120, height: Int = 40, app: (@Sendable (DashboardRuntime) -> AppAttachment)? = nil,
            keys: [Key] = [], duration: Duration = .seconds(10), themes: [Theme] = [.default], themeIndex: Int = 0,
            colorDepth: ColorDepth = .colors256, unicode: Bool = true,
            startDate: Date = Date(timeIntervalSince1970: 1_767_258_000), statusMessage: String? = nil,
            recording: RecordingPlayer? = nil
        ) {
            self.recording = recording
            self.width = width
            self.height = height
            self.app = app
            self.keys = keys
            self.duration = duration
            self.themes = themes
            self.themeIndex = themeIndex
            self.colorDepth = colorDepth
            self.unicode = unicode
            self.startDate = startDate
            self.statusMessage = statusMessage
        }
    }

    /// What this renderer runs.
    public let options: Options

    /// After this much simulated time in which nothing happened but periodic metrics samples equal to the one
    /// before, with nothing due within a second but the sampler, the run jumps to one second before the next thing
    /// due (a sleeper further away, a key or the end) instead of waking the sampler twice a second all the way.
    /// Samples stop changing only once every rate and per-second count has emptied (they look back 60 s), so the
    /// screen after the jump is the one stepping would give; a 130-year silence in a recording costs one jump
    /// instead of eight billion samples.
    public static let quietSpan: Duration = .seconds(2)

    /// A renderer for `options`.
    public init(options: Options) { self.options = options }

    /// What a run ends with.
    public struct Outcome: Sendable {
        /// The dashboard's final state.
        public var state: DashboardState
        /// The final screen.
        public var screen: ScreenBuffer
        /// The stream's counters at the end: what was added, dropped, and who listened.
        public var statistics: ErrorStream.Statistics
    }

    /// Runs the simulation and returns the final state and screen.
    public func run() -> Outcome {
        let clock = ManualClock()
        let executor = SimulationExecutor()
        let startDate = options.recording?.startDate ?? options.startDate
        let runtime = DashboardRuntime(
            clock: ErasedClock(clock), startDate: startDate, timeScale: options.recording?.speed ?? 1,
            executor: executor, exporter: options.exporter)
        if let app = options.app { runtime.attach(app(runtime)) }
        var storeProblem: String?
        if let issueStore = options.store {
            do { try runtime.showStore(issueStore) } catch { storeProblem = "store not read: \(error.description)" }
        }
        var store = DashboardStore(
            state: DashboardState(
                width: options.width, height: options.height, now: startDate, themes: options.themes,
                colorDepth: options.colorDepth, unicode: options.unicode))
        store.send(.themeSelected(options.themeIndex))
        if let message = storeProblem ?? options.statusMessage { store.send(.statusMessage(message)) }
        var quit = false
        // When something other than an unchanged periodic sample last happened, on the clock.
        var lastActivity = Duration.zero
        var lastSample: MetricsSnapshot?

        func apply(_ action: DashboardAction) {
            store.send(action, to: .init(quit: { quit = true }, perform: runtime.perform))
        }
        func settle() {
            repeat {
                executor.runUntilIdle()
                for action in runtime.inbox.drain() {
                    if case .metricsSampled(let sample) = action {
                        if sample != lastSample { lastActivity = clock.now.offset }
                        lastSample = sample
                    } else {
                        lastActivity = clock.now.offset
                    }
                    apply(action)
                }
            } while executor.pendingJobs > 0
            // Simulated time has no frames: work spread over frames is finished here, so a run's screen is the
            // same however the work is sliced.
            while store.state.hasWorkInProgress { apply(.frameStarted) }
            apply(.tick(runtime.now))
        }
        /// Where to jump to, when nothing has happened for ``quietSpan`` and the next thing due is far enough away.
        func quietJump(before target: Duration) -> Duration? {
            let now = clock.now.offset
            guard options.skipsQuietTime, now - lastActivity >= Self.quietSpan else { return nil }
            let deadlines = clock.pendingDeadlines
            // More than the sampler due within a second: something else is about to happen.
            guard deadlines.count(where: { $0.offset <= now + .seconds(1) }) <= 1 else { return nil }
            let far = deadlines.first { $0.offset > now + .seconds(1) }?.offset ?? target
            let jump = min(far, target) - .seconds(1)
            return jump > now + .seconds(1) ? jump : nil
        }

        func advance(to target: Duration) {
            settle()
            while let next = clock.pendingDeadlines.first, next.offset <= target {
                if let jump = quietJump(before: target) {
                    clock.advance(to: ManualClock.Instant(offset: jump))
                } else {
                    clock.advance(to: next)
                }
                settle()
            }
            clock.advance(to: ManualClock.Instant(offset: target))
            settle()
        }

        runtime.start()
        var player: Task<Void, Never>?
        if let recording = options.recording {
            let ingest = runtime.ingest
            let demoClock = runtime.clock
            player = Task(executorPreference: executor) { await recording.play(into: ingest, clock: demoClock) }
        }
        settle()
        let step = options.duration / (options.keys.count + 1)
        for (index, key) in options.keys.enumerated() where !quit {
            advance(to: step * (index + 1))
            apply(.keyPressed(key))
            settle()
        }
        if !quit { advance(to: options.duration) }
        // A last sample, so the final screen's totals are exact rather than up to 500 ms old.
        apply(.metricsSampled(runtime.sampleMetrics()))
        let statistics = runtime.stream.statistics
        player?.cancel()
        runtime.stop()
        executor.runUntilIdle()
        return Outcome(state: store.state, screen: Dashboard.render(store.state), statistics: statistics)
    }
}
