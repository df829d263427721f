import ErrorStreaming
import ErrorWatchStore
import ErrorWatchUI
import Foundation
import Logging
import Synchronization

/// Everything behind the dashboard, wired: one ``ErrorStream``, the swift-metrics and swift-log backends, the
/// ingest for events from outside, the feeds that turn it all into ``DashboardAction``s in an ``ActionInbox``, and
/// the apps attached inside the process (``AppAttachment``).
///
/// The live command, `replay` and the headless renderer build the same runtime; they differ only in the clock
/// (continuous or manual), the executor (global or ``SimulationExecutor``) and who drains the inbox.
///
/// ```swift
/// let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
/// runtime.attach(myApp)          // optional: an app inside the process, with its keys
/// runtime.start()                // feeds subscribe, then apps start
/// runtime.ingest.ingest(event)   // events from other processes
/// ```
public final class DashboardRuntime: Sendable {
    /// The one stream every error goes through.
    public let stream: ErrorStream
    /// The swift-metrics backend the `Metrics` pane reads; attached apps record into it.
    public let metrics: DashboardMetrics
    /// Where the feeds post actions for the UI thread.
    public let inbox: ActionInbox
    /// Where events from other processes, files and recordings come in.
    public let ingest: RemoteIngest
    let feeds: DashboardFeeds
    /// The wall-clock time at the clock's zero.
    public let startDate: Date
    /// The clock every wait sleeps on.
    public let clock: ErasedClock
    /// Where tasks run; `nil` for the global concurrent executor.
    public let executor: (any TaskExecutor)?
    /// Dashboard seconds per clock second: 4 when a recording replays at `--speed 4`, so ages read as recorded.
    public let timeScale: Double
    /// Where `W` saves the events that match the filters.
    public let exporter: EventExporter
    private let logObserver = Observer<DashboardLogHandler.Record>()
    private let statusObserver = Observer<StatusEntry>()
    private let apps = Mutex<[AppAttachment]>([])
    private let storeWriter = Mutex<StoreWriter?>(nil)

    /// - Parameters:
    ///   - clock: every wait in the feeds and attached apps sleeps on it.
    ///   - startDate: the wall-clock time at the clock's zero; timestamps are `startDate + clock.now × timeScale`.
    ///   - timeScale: how fast dashboard time runs against the clock.
    ///   - executor: where every task runs; `nil` for the global concurrent executor.
    ///   - historyCapacity: events the stream keeps for late subscribers.
    ///   - exporter: where `W` saves events (`$ERRORWATCH_EXPORT_DIR` or the current folder by default).
    ///   - traceBudget: how many spans, and bytes of them, the trace store keeps (`--trace-budget`).
    public init(
        clock: ErasedClock, startDate: Date, timeScale: Double = 1, executor: (any TaskExecutor)? = nil,
        historyCapacity: Int = 256, exporter: EventExporter = .fromEnvironment(),
        traceBudget: TraceStore.Budget = TraceStore.Budget()
    ) {
        self.exporter = exporter
        self.clock = clock
        self.startDate = startDate
        self.timeScale = timeScale
        self.executor = executor
        let now: @Sendable () -> Date = { startDate.addingTimeInterval(clock.now.offset.timeInterval * timeScale) }
        let metrics = DashboardMetrics(now: now)
        // Counting, grouping into issues and folding into alerts happen where errors are added, synchronously:
        // exact at any rate, with no backlog to hold.
        let counter = ErrorCounter(metrics: metrics)
        let issues = IssueTracker()
        let inbox = ActionInbox()
        let alerts = AlertFeed(inbox: inbox, clock: clock)
        let stream = ErrorStream(
            historyCapacity: historyCapacity, now: now,
            onAdd: { event in
                let facts = ErrorFacts(event)
                counter.count(event, facts: facts)
                issues.count(event, facts: facts)
                alerts.receive(event)
            },
            // Errors that arrived together (a socket's read, a request, a piece of a file): each counter's lock and
            // the inbox's are taken once for all of them.
            onAddBatch: { events in
                let facts = events.map(ErrorFacts.init)
                counter.count(contentsOf: events, facts: facts)
                issues.count(contentsOf: events, facts: facts)
                alerts.receive(contentsOf: events)
            })
        self.stream = stream
        self.metrics = metrics
        self.inbox = inbox
        feeds = DashboardFeeds(
            stream: stream, metrics: metrics, inbox: inbox, clock: clock, now: now, executor: executor,
            counter: counter, issues: issues, alerts: alerts)
        ingest = RemoteIngest(stream: stream, inbox: inbox, metrics: metrics, now: now, traceBudget: traceBudget)
    }

    /// The wall-clock time now, on the runtime's clock.
    public var now: Date { startDate.addingTimeInterval(clock.now.offset.timeInterval * timeScale) }

    /// Attaches an app running inside this process: its keys join the dashboard's keymap (footer, help overlay)
    /// and its commands come back through ``perform(_:)``. Call before ``start()``, which starts it.
    public func attach(_ app: AppAttachment) {
        apps.withLock { $0.append(app) }
        inbox.post(.appAttached(app.attachedApp))
    }

    /// The apps attached, in order.
    public var attachedApps: [AppAttachment] { apps.withLock { $0 } }

    /// A swift-log handler for an attached app's logger: records go to the `Logs` pane (and to ``observeLogs(_:)``);
    /// a record that carries an error adds it to the stream instead, where it is counted, classified and alerted.
    ///
    /// ```swift
    /// let logger = Logger(label: "worker") { runtime.makeLogHandler(label: $0) }
    /// ```
    public func makeLogHandler(label: String) -> DashboardLogHandler {
        let observer = logObserver
        let inbox = self.inbox
        return DashboardLogHandler(label: label, stream: stream, now: { [self] in now }) { record in
            observer.notify(record)
            // A record that carries an error reaches the Logs pane as that error's stream event.
            if record.error == nil { inbox.post(event: DashboardEvent(record)) }
        }
    }

    /// Publishes a named status of an attached app to the `Status` pane (the latest per name wins).
    public func publish(status: StatusEntry) {
        statusObserver.notify(status)
        inbox.post(.statusChanged(status))
    }

    /// Calls `body` with every status the attached apps publish (for `--record`).
    public func observeStatuses(_ body: @escaping @Sendable (StatusEntry) -> Void) {
        statusObserver.set(body)
    }

    /// Calls `body` with every log record the attached apps write (for `--record`).
    public func observeLogs(_ body: @escaping @Sendable (DashboardLogHandler.Record) -> Void) {
        logObserver.set(body)
    }

    /// Keeps issues in `store`: loads what it has (the Issues view shows it at the first sample, counts going on
    /// from there), then, once started, writes what is counted every 100 ms off the UI thread and shows what other
    /// processes change. Call before ``start()``. Returns how many issues were loaded.
    @discardableResult
    public func useStore(_ store: IssueStore) throws(IssueStoreError) -> Int {
        let writer = StoreWriter(store: store, tracker: feeds.issues, inbox: inbox, clock: clock)
        let loaded = try writer.load()
        storeWriter.withLock { $0 = writer }
        // Files read again count only what is past their mark; marks are written with the counts they cover.
        let tracker = feeds.issues
        ingest.setReadLedger(
            RemoteIngest.ReadLedger(
                marks: { device, inode in (try? store.fileMarks(device: device, inode: inode)) ?? [] },
                record: { tracker.noteRead($0) }))
        return loaded
    }

    /// Shows what `store` holds (its issues with their counts, versions and triage) without ever writing to it:
    /// `errorwatch render --store`, whose simulated run must not add to a user's store. Returns how many issues were
    /// read.
    @discardableResult
    public func showStore(_ store: IssueStore) throws(IssueStoreError) -> Int {
        let (_, issues) = try store.issues(changedAfter: 0, limit: feeds.issues.capacity)
        feeds.issues.reconcile(issues)
        return issues.count
    }

    /// Says in the header that the dashboard runs without a store, and why (`store off: read-only folder`).
    public func reportStoreUnavailable(_ reason: String) { inbox.post(.storeStatusChanged("store off: " + reason)) }

    /// Subscribes the feeds, then starts the attached apps (so no error of theirs is missed), and the store's writer.
    public func start() {
        feeds.start()
        for app in attachedApps { app.start() }
        storeWriter.withLock { $0 }?.start(on: executor)
    }

    /// Writes what the store has not yet got, now (tests; `stop()` does it too).
    public func flushStore() { storeWriter.withLock { $0 }?.flush() }

    /// Stops the apps and the feeds, and finishes the stream. Every error added was counted as it was added, so
    /// totals read after this are exact.
    public func stop() {
        for app in attachedApps { app.stop() }
        feeds.stop()
        stream.finish()
        // Everything counted is in the tracker now: the last write takes it.
        storeWriter.withLock { $0 }?.stop()
    }

    /// Performs what the reducer asked for that concerns an attached app. Quit and redraw belong to the terminal
    /// loop. A command for an app that is not attached is reported on the status line.
    public func perform(_ effect: DashboardEffect) {
        switch effect {
        case .appCommand(let command):
            if let app = attachedApps.first(where: { $0.name == command.app }) {
                app.perform(command.id)
            } else {
                inbox.post(.statusMessage("no app \(command.app) in this process"))
            }
        case .export(let events):
            // Written off the UI thread; the status line says where, or why not.
            let exporter = self.exporter
            let inbox = self.inbox
            let date = now
            spawn {
                do {
                    let path = try exporter.write(events, at: date)
                    inbox.post(.statusMessage("saved \(events.count) events to \(path)"))
                } catch {
                    inbox.post(.statusMessage("could not save: \(error)"))
                }
            }
        case .triage(let fingerprint, let action):
            feeds.issues.applyTriage(fingerprint, action, at: now, actor: "dashboard \(getpid())")
        case .traceOpened(let traceID):
            ingest.traces.show(traceID)
        case .metricOpened(let id):
            feeds.showChart(id)
        case .quit, .redrawAll:
            break
        }
    }

    private func spawn(_ operation: @escaping @Sendable () async -> Void) {
        if let executor {
            Task(executorPreference: executor) { await operation() }
        } else {
            Task { await operation() }
        }
    }

    /// A metrics snapshot taken now (the sampler publishes one every 500 ms).
    public func sampleMetrics() -> MetricsSnapshot { feeds.sample() }
}
