import ErrorStreaming
import ErrorWatchUI
import Foundation

/// Everything behind the dashboard, wired: one ``ErrorStream``, the simulated ``DemoApp`` (or none, when the
/// dashboard watches other processes), the swift-metrics and swift-log backends, the ingest for events from
/// outside, and the feeds that turn it all into ``DashboardAction``s in an ``ActionInbox``.
///
/// The live command, `replay` and the headless renderer build the same runtime; they differ only in the clock
/// (continuous or manual), the executor (global or ``SimulationExecutor``) and who drains the inbox.
public final class DashboardRuntime: Sendable {
    /// What runs inside the dashboard's process.
    public enum Content: Sendable {
        /// The simulated app.
        case demo(DemoConfiguration)
        /// Nothing: events come from outside (`--listen`, `--tail`, a recording).
        case external
    }

    public let stream: ErrorStream
    public let metrics: DashboardMetrics
    public let inbox: ActionInbox
    /// The simulated app, when it runs.
    public let demo: DemoApp?
    /// Where events from other processes, files and recordings come in.
    public let ingest: RemoteIngest
    let feeds: DashboardFeeds
    /// The wall-clock time at the clock's zero.
    public let startDate: Date
    public let clock: DemoClock
    /// Dashboard seconds per clock second: 4 when a recording replays at `--speed 4`, so ages read as recorded.
    public let timeScale: Double
    private let logObserver = Observer<LogRecord>()

    /// - Parameters:
    ///   - clock: every wait in the app and the feeds sleeps on it.
    ///   - startDate: the wall-clock time at the clock's zero; timestamps are `startDate + clock.now × timeScale`.
    ///   - content: the simulated app with its timings and seed, or nothing.
    ///   - timeScale: how fast dashboard time runs against the clock.
    ///   - executor: where every task runs; `nil` for the global concurrent executor.
    public init(
        clock: DemoClock, startDate: Date, content: Content = .demo(DemoConfiguration()), timeScale: Double = 1,
        executor: (any TaskExecutor)? = nil, historyCapacity: Int = 256
    ) {
        self.clock = clock
        self.startDate = startDate
        self.timeScale = timeScale
        let now: @Sendable () -> Date = { startDate.addingTimeInterval(clock.now.offset.seconds * timeScale) }
        let stream = ErrorStream(historyCapacity: historyCapacity, now: now)
        let metrics = DashboardMetrics()
        let inbox = ActionInbox()
        self.stream = stream
        self.metrics = metrics
        self.inbox = inbox
        feeds = DashboardFeeds(
            stream: stream, metrics: metrics, inbox: inbox, clock: clock, now: now, executor: executor)
        ingest = RemoteIngest(stream: stream, inbox: inbox, metrics: metrics, now: now)
        switch content {
        case .demo(let configuration):
            let observer = logObserver
            demo = DemoApp(
                stream: stream, clock: clock, configuration: configuration, metrics: metrics, now: now,
                executor: executor,
                logSink: { record in
                    observer.notify(record)
                    // A record that carries an error reaches the Logs pane as that error's stream event.
                    if record.error == nil { inbox.post(event: DashboardEvent(record)) }
                },
                flowSink: { inbox.post(.flowChanged($0)) })
        case .external:
            demo = nil
        }
    }

    /// The wall-clock time now, on the runtime's clock.
    public var now: Date { startDate.addingTimeInterval(clock.now.offset.seconds * timeScale) }

    /// Calls `body` with every log record the app writes (for `--record`).
    public func observeLogs(_ body: @escaping @Sendable (LogRecord) -> Void) {
        logObserver.set(body)
    }

    /// Subscribes the feeds, then starts the app (so no error of the app is missed).
    public func start() {
        feeds.start()
        demo?.start()
    }

    /// Stops the app and the feeds, and finishes the stream.
    public func stop() {
        demo?.stop()
        feeds.stop()
        stream.finish()
    }

    /// Performs what the reducer asked for that concerns the app (demo triggers). Quit and redraw belong to
    /// the terminal loop. Without a demo app, the status line says where the triggers went.
    public func perform(_ effect: DashboardEffect) {
        guard case .trigger(let trigger) = effect else { return }
        if let demo {
            demo.trigger(trigger)
        } else {
            inbox.post(.statusMessage("no demo app in this process: \(trigger.rawValue) is for `errorwatch demo`"))
        }
    }

    /// A metrics snapshot taken now (the sampler publishes one every 500 ms).
    public func sampleMetrics() -> MetricsSnapshot { feeds.sample() }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
