import ErrorStreaming
import ErrorWatchUI
import Foundation

/// Everything behind the dashboard, wired: one ``ErrorStream``, the simulated ``DemoApp``, the swift-metrics
/// and swift-log backends, and the feeds that turn it all into ``DashboardAction``s in an ``ActionInbox``.
///
/// The live command and the headless renderer build the same runtime; they differ only in the clock
/// (continuous or manual), the executor (global or ``SimulationExecutor``) and who drains the inbox.
public final class DashboardRuntime: Sendable {
    public let stream: ErrorStream
    public let metrics: DashboardMetrics
    public let inbox: ActionInbox
    public let demo: DemoApp
    let feeds: DashboardFeeds
    /// The wall-clock time at the clock's zero.
    public let startDate: Date
    public let clock: DemoClock

    /// - Parameters:
    ///   - clock: every wait in the app and the feeds sleeps on it.
    ///   - startDate: the wall-clock time at the clock's zero; timestamps are `startDate + clock.now`.
    ///   - configuration: the demo's timings and seed.
    ///   - executor: where every task runs; `nil` for the global concurrent executor.
    public init(
        clock: DemoClock, startDate: Date, configuration: DemoConfiguration = DemoConfiguration(),
        executor: (any TaskExecutor)? = nil, historyCapacity: Int = 256
    ) {
        self.clock = clock
        self.startDate = startDate
        let now: @Sendable () -> Date = { startDate.addingTimeInterval(clock.now.offset.seconds) }
        let stream = ErrorStream(historyCapacity: historyCapacity, now: now)
        let metrics = DashboardMetrics()
        let inbox = ActionInbox()
        self.stream = stream
        self.metrics = metrics
        self.inbox = inbox
        feeds = DashboardFeeds(stream: stream, metrics: metrics, inbox: inbox, clock: clock, now: now, executor: executor)
        demo = DemoApp(
            stream: stream, clock: clock, configuration: configuration, metrics: metrics, now: now,
            executor: executor,
            logSink: { record in
                // A record that carries an error reaches the Logs pane as that error's stream event.
                if record.error == nil { inbox.post(event: DashboardEvent(record)) }
            },
            flowSink: { inbox.post(.flowChanged($0)) })
    }

    /// The wall-clock time now, on the runtime's clock.
    public var now: Date { startDate.addingTimeInterval(clock.now.offset.seconds) }

    /// Subscribes the feeds, then starts the app (so no error of the app is missed).
    public func start() {
        feeds.start()
        demo.start()
    }

    /// Stops the app and the feeds, and finishes the stream.
    public func stop() {
        demo.stop()
        feeds.stop()
        stream.finish()
    }

    /// Performs what the reducer asked for that concerns the app (demo triggers). Quit and redraw belong to
    /// the terminal loop.
    public func perform(_ effect: DashboardEffect) {
        if case .trigger(let trigger) = effect { demo.trigger(trigger) }
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
