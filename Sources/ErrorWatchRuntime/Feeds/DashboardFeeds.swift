import CoreMetrics
import DequeModule
import ErrorStreaming
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// The dashboard's consumers of the ``ErrorStream``, each its own concurrent subscription with its own filter:
///
/// - **Logs**: every event of this process (a remote error is posted by ``RemoteIngest`` itself, in its source's
///   order), the newest the inbox can keep buffered (2,048: a frame never shows more; a slow UI drops the oldest,
///   counted by the stream);
/// - **Handling**: the handler tree's reports, joined to their events by sequence number in the store;
/// - a sampler that publishes a ``MetricsSnapshot`` and the changed issues every 500 ms, and prunes the alerts
///   that are over.
///
/// What must be exact is not a subscription: counting by type and category (``ErrorCounter``), grouping into issues
/// (``IssueTracker``) and folding user errors into alerts (``AlertFeed``) happen where errors are added (the
/// stream's `onAdd`, see `DashboardRuntime`), so no flood can make them skip an error.
///
/// While a live UI runs, the feeds are paced by its frames (``ActionInbox/untilTaken()``).
final class DashboardFeeds: Sendable {
    let stream: ErrorStream
    let metrics: DashboardMetrics
    let inbox: ActionInbox
    let clock: ErasedClock
    let now: @Sendable () -> Date
    let executor: (any TaskExecutor)?
    let counter: ErrorCounter
    let issues: IssueTracker
    let alerts: AlertFeed
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// This process's errors the Logs feed received (remote ones reach the pane from the ingest instead).
    private let localReceived = Mutex(0)
    /// Each counter's totals at the last minute of samples, for its rate.
    private let counterHistory = Mutex<[String: Deque<(Date, Double)>]>([:])
    /// Every listed series over time, and the one whose chart is open (its chart goes out with each sample).
    private let charts = Mutex<(history: MetricHistory, shown: String?)>((MetricHistory(), nil))

    /// Labels of the dashboard's own metrics, which the pane shows in its own lines rather than as series.
    static let internalLabels: Set<String> = ["errors", "errorstream.dropped", "errorstream.listeners"]
    /// At most this many series are sampled for the pane (the most recently updated).
    static let seriesLimit = 200

    init(
        stream: ErrorStream, metrics: DashboardMetrics, inbox: ActionInbox, clock: ErasedClock,
        now: @escaping @Sendable () -> Date, executor: (any TaskExecutor)?, counter: ErrorCounter,
        issues: IssueTracker, alerts: AlertFeed
    ) {
        self.stream = stream
        self.metrics = metrics
        self.inbox = inbox
        self.clock = clock
        self.now = now
        self.executor = executor
        self.counter = counter
        self.issues = issues
        self.alerts = alerts
    }

    /// Subscribes every feed now (so nothing added after this call is missed) and starts consuming.
    func start() {
        let logs = stream.events(bufferingPolicy: .bufferingNewest(inbox.eventCapacity))
        let handling = stream.handlingReports(bufferingPolicy: .bufferingNewest(1_024))
        // Each feed posts the batch its subscription holds, then waits for the UI to take it (frame pacing), so a
        // flood costs a wake-up per feed per frame, not per event.
        let started = [
            spawn { [self] in
                var events = logs.makeAsyncIterator()
                while let event = await events.next() {
                    // A remote error was posted by the ingest, in its source's order among its log lines.
                    if event.context.remote == nil {
                        inbox.post(streamEvent: event)
                        localReceived.withLock { $0 += 1 }
                    }
                    if events.bufferedCount == 0 { await inbox.untilTaken() }
                }
            },
            spawn { [self] in
                var reports = handling.makeAsyncIterator()
                while let report = await reports.next() {
                    inbox.post(
                        .handlingReported(
                            sequence: report.sequence,
                            HandlingSummary(
                                path: report.path, outcome: report.outcome.description, handled: report.handled)))
                    if reports.bufferedCount == 0 { await inbox.untilTaken() }
                }
            },
            spawn { [self] in
                while !Task.isCancelled {
                    inbox.post(.metricsSampled(sample()))
                    alerts.prune()
                    let sampled = issues.sample(at: now())
                    if !sampled.changed.isEmpty || !sampled.evicted.isEmpty {
                        inbox.post(.issuesSampled(changed: sampled.changed, evicted: sampled.evicted))
                    }
                    for (issue, version) in issues.takeRegressions() {
                        inbox.post(.alertReceived(regressionAlert(issue, version)))
                    }
                    do { try await clock.sleep(for: .milliseconds(500)) } catch { return }
                }
            },
        ]
        tasks.withLock { $0 += started }
    }

    /// Cancels every feed. Counting is not a feed: the stream counts as errors are added (see `DashboardRuntime`).
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// Reads the metrics backend and the stream's statistics into a snapshot for the `Metrics` pane.
    func sample() -> MetricsSnapshot {
        let totals = counter.totals
        // The stream's own health goes through swift-metrics too, like any other gauge an app would export.
        // Read back by exact key: remote producers' metrics live under `remote.` and cannot shadow these.
        let statistics = stream.statistics
        // What the Logs pane did not show: events the inbox let give way, and this process's errors its subscription
        // dropped. The subscription's drops of remote errors are not counted: it skips them anyway (the ingest
        // posts them), and counting them had reported more drops than a file held lines. Its drops of this
        // process's errors are those it never received, at most all it dropped (so errors still buffered, not yet
        // received, are not counted while nothing was dropped).
        let localUndelivered = UInt64(max(0, counter.localTotal - localReceived.withLock { $0 }))
        let viewDrops = min(statistics.dropped, localUndelivered) &+ inbox.sampledOut
        Gauge(label: "errorstream.dropped", factory: metrics).record(Int64(clamping: viewDrops))
        Gauge(label: "errorstream.listeners", factory: metrics).record(statistics.subscribers)
        let dropped = UInt64(clampingGauge: metrics.gaugeValue(exactly: "errorstream.dropped"))
        let listeners = Int(clamping: UInt64(clampingGauge: metrics.gaugeValue(exactly: "errorstream.listeners")))
        var snapshot = MetricsSnapshot(
            totalErrors: totals.total, errorsByType: totals.byType, errorsByCategory: totals.byCategory,
            errorRatePerSecond: counter.ratePerSecond(endingAt: now()),
            series: [], droppedEvents: dropped, listenerCount: listeners)
        (snapshot.series, snapshot.chart) = sampleSeries()
        snapshot.serviceEdges = metrics.services.edges()
        snapshot.otherTypeErrors = totals.otherTypes
        snapshot.unclassifiedErrors = totals.unclassified
        return snapshot
    }

    /// A chart view opened on the series `id`: its chart goes out with every sample from now on, the first at once.
    func showChart(_ id: String) {
        charts.withLock { $0.shown = id }
        inbox.post(.metricsSampled(sample()))
    }

    /// What the apps and producers record, the most recently updated first, and the chart of the one shown;
    /// counters get their rate over the samples of the last minute.
    private func sampleSeries() -> ([MetricSeries], MetricChart?) {
        var series = Array(metrics.series { !Self.internalLabels.contains($0) }.prefix(Self.seriesLimit))
        let observations = metrics.takeObservations()
        let at = now()
        counterHistory.withLock { history in
            var seen: Set<String> = []
            for index in series.indices where series[index].kind == .counter {
                let key = series[index].name + "\u{1F}" + (series[index].service ?? "")
                seen.insert(key)
                var samples = history[key] ?? []
                samples.append((at, series[index].value))
                while let first = samples.first, at.timeIntervalSince(first.0) > 60 { samples.removeFirst() }
                history[key] = samples
                if let first = samples.first, at.timeIntervalSince(first.0) >= 1 {
                    series[index].ratePerSecond = (series[index].value - first.1) / at.timeIntervalSince(first.0)
                } else {
                    series[index].ratePerSecond = 0
                }
            }
            history = history.filter { seen.contains($0.key) }
        }
        let chart = charts.withLock { charts in
            charts.history.record(series, observations: observations, at: at)
            return charts.shown.flatMap { charts.history.chart(for: $0, at: at) }
        }
        return (series, chart)
    }

    @discardableResult
    private func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if let executor { return Task(executorPreference: executor) { await operation() } }
        return Task { await operation() }
    }
}

extension UInt64 {
    /// A gauge's value as a count: 0 for missing, negative or not-a-number values, capped at `UInt64.max`.
    init(clampingGauge value: Double?) {
        guard let value, value.isFinite, value > 0 else {
            self = 0
            return
        }
        self = value >= 1.8e19 ? .max : UInt64(value)
    }
}

extension DashboardFeeds {
    /// The alert a regression raises: what came back, and in which version when the producer said.
    func regressionAlert(_ issue: IssueRecord, _ version: String?) -> AlertRecord {
        let title = "Regressed: \(issue.typeName) is back" + (version.map { " in \($0)" } ?? "")
        return AlertRecord(
            fingerprint: "regressed:" + issue.fingerprint, title: title, code: issue.code, severity: issue.severity,
            category: issue.category, count: 1, firstSeen: issue.lastSeen, lastSeen: issue.lastSeen,
            source: issue.services.first ?? "", typeName: issue.typeName, origin: .user, firstReceived: now(),
            lastReceived: now(), services: issue.services)
    }
}
