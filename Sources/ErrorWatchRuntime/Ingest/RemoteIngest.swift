import DequeModule
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Turns events from outside the process (sockets, tailed files, pipes, OTLP, recordings) into what the dashboard
/// consumes.
///
/// A remote error becomes a ``RemoteError`` added to the local ``ErrorStream``, carrying the producer's service,
/// process, host and time and where and when the line was read, so the `Errors`, `Logs` and `Metrics` feeds treat
/// it exactly like a local one (coalescing, counts, filters). A remote log line goes straight to the `Logs` pane;
/// a metric is recorded in the metrics backend (``RemoteMetrics``); a status goes to the `Status` pane; a handling
/// report joins the event its error became (``HandlingJoins``). Each source's row is kept by a ``SourceBoard``.
public final class RemoteIngest: Sendable {
    let stream: ErrorStream
    let inbox: ActionInbox
    let now: @Sendable () -> Date
    private let board: SourceBoard
    private let remoteMetrics: RemoteMetrics
    private let joins = HandlingJoins()
    private let observer = Observer<WireEvent>()
    /// Whether OTLP requests are admitted (``hasRoom(for:)``).
    let admission: Mutex<IngestAdmission>
    /// The spans received, by trace, within their budget; the traces errors belong to are posted to the UI.
    let traces: TraceBoard
    /// Requests per second, error share and durations of server and consumer spans, for the Metrics pane.
    let requestMetrics: RequestMetrics
    /// Calls between services, found by the trace store, for the Services view.
    let serviceGraph: ServiceGraph
    /// What the OTLP receivers remember of recent traces to count one failure once: one memory for all of them, so
    /// a trace whose services export over HTTP and gRPC is counted as one (docs/otlp.md, "One failure, one error").
    let otlpTraceMemory = OTLPTraceMemory()
    /// Where errors' frames get their source lines from, when the service's source is here.
    private let sourceLines = Mutex<SourceLines?>(nil)

    /// How long the UI may leave posted actions undrawn before OTLP requests are refused: a frame and a half at 30
    /// a second. A key waits at most for the frame in progress and then its own, so keys stay within about twice
    /// this (measured in docs/otlp.md, "Load": 100 ms let keys wait up to 261 ms under load).
    public static let uiStallLimit: TimeInterval = 0.05

    /// At most this many distinct metric series are kept from remote producers; later new ones are ignored.
    public static let maximumRemoteMetrics = 512

    /// How many ended sources (closed connections, finished recordings) stay listed; older ones are forgotten
    /// and only counted, so a stream of one-shot connections costs the same per connection however long it runs.
    public static let endedSourcesKept = 100

    init(
        stream: ErrorStream, inbox: ActionInbox, metrics: DashboardMetrics, now: @escaping @Sendable () -> Date,
        uiStallLimit: TimeInterval = RemoteIngest.uiStallLimit, traceBudget: TraceStore.Budget = TraceStore.Budget()
    ) {
        self.stream = stream
        self.inbox = inbox
        self.now = now
        board = SourceBoard(inbox: inbox, endedKept: Self.endedSourcesKept)
        remoteMetrics = RemoteMetrics(metrics: metrics, maximumSeries: Self.maximumRemoteMetrics)
        admission = Mutex(IngestAdmission(stallLimit: uiStallLimit))
        traces = TraceBoard(inbox: inbox, budget: traceBudget)
        requestMetrics = metrics.requests
        serviceGraph = metrics.services
    }

    /// Reads errors' frames from their printed traces and shows the source lines of those under `lines`' root
    /// (`errorwatch run`, `--source-root`); see ``SourceLines``.
    public func showSourceLines(_ lines: SourceLines) {
        sourceLines.withLock { $0 = lines }
    }

    /// Calls `body` with every event ingested (for `--record`).
    public func observe(_ body: @escaping @Sendable (WireEvent) -> Void) {
        observer.set(body)
    }

    /// Ingests one event that arrived from outside; `from` says where the line was read (`socket #3 on
    /// unix:/tmp/ew.sock`, `file /var/log/app.ndjson`), shown in the detail view. The event keeps the producer's
    /// own time; the time it was read is now; `channel` is the kind of way in that read it. `countedBefore`: an
    /// earlier reading of its file counted it in the store (it is shown, not counted again).
    public func ingest(
        _ event: WireEvent, from: String? = nil, channel: EventChannel? = nil, countedBefore: Bool = false
    ) {
        let receivedAt = now()
        // Only an error reads source lines: a log line or a metric at full rate takes no lock for them.
        ingest(
            event, from: from, channel: channel, countedBefore: countedBefore, receivedAt: receivedAt,
            lines: event.kind == .error ? sourceLines.withLock { $0 } : nil,
            show: { shown in
                // Only a log line is shown from here: an error is posted as it is added.
                if case .log(let log, let from, let channel) = shown {
                    inbox.post(event: Self.logEvent(log, from: from, receivedAt: receivedAt, channel: channel))
                }
            },
            add: { error in
                if let local = add(error) { inbox.post(streamEvent: error.event(sequence: local, at: receivedAt)) }
            },
            settle: {})
    }

    /// Events that arrive together (a piece of a file, a pipe's or a socket's read, an OTLP request or Sentry
    /// envelope), ingested by ``ingest(_:from:channel:countedBefore:into:)``: as one by one, but the time they were
    /// read and the source-lines root are looked up once, their errors are added to the stream together (one lock,
    /// one call of each counter) a few hundred at a time, before a handling report and when the batch ends, and what
    /// they show in the `Logs` pane is posted to the inbox in one step when the batch ends. Of those, only the last
    /// ``ActionInbox/eventCapacity`` can be kept until the UI drains, so only they become the pane's values; the ones
    /// before are counted as given way, as the inbox counts its own.
    public struct Batch {
        fileprivate let receivedAt: Date
        fileprivate let lines: SourceLines?
        /// How many of the events that show in the `Logs` pane a batch keeps: its last ones.
        public let capacity: Int
        fileprivate var shown: Deque<Shown> = []
        fileprivate var passedOver = 0
        /// How many of the next events that show in the `Logs` pane are known to give way (``passOver(_:)``).
        fileprivate var toPassOver = 0
        /// The batch's remote errors not yet added to the stream, in order.
        fileprivate var errors: [PendingError] = []
        /// How many entries of `shown` are errors of `errors` (``Shown/error(_:)``): the last ones of that case.
        fileprivate var showsPending = 0

        /// Says that the next `count` events of this batch that show in the `Logs` pane
        /// (``RemoteIngest/showsInLogs(_:)``) will give way to later ones of the same batch, as a caller that knows
        /// the batch's events before ingesting them can count: they are counted as given way at once, without
        /// being kept until they do. A count of zero or less changes nothing.
        public mutating func passOver(_ count: Int) { toPassOver = max(0, count) }

        /// Whether the next event that shows is passed over, counting it as given way if so.
        fileprivate mutating func passesOver() -> Bool {
            guard toPassOver > 0 else { return false }
            toPassOver -= 1
            passedOver += 1
            return true
        }

        fileprivate mutating func append(_ entry: Shown) {
            if passesOver() { return }
            if shown.count == capacity {
                if case .error = shown.removeFirst() { showsPending -= 1 }
                passedOver += 1
            }
            if case .error = entry { showsPending += 1 }
            shown.append(entry)
        }
    }

    /// What an event shows in the `Logs` pane, as a batch gathers it: a remote log line becomes the pane's value only
    /// if it is still kept when its batch ends.
    fileprivate enum Shown {
        /// The batch's remote error at this index of ``Batch/errors``, not yet added to the stream.
        case error(Int)
        /// A remote error added, as the pane shows it; `nil` if the stream was finished and ignored it.
        case added(ErrorEvent?)
        case log(WireEvent, from: String?, channel: EventChannel?)
    }

    /// A remote error made from its event, before it is added to the stream, with what follows its adding.
    fileprivate struct PendingError {
        var remote: RemoteError
        var context: ErrorContext
        /// The trace it belongs to, and its service, to watch once it is added.
        var traceID: String?
        var service: String?
        /// How its producer numbered it, for its handling report to join the local event.
        var join: HandlingJoins.Key?

        /// The stream's event it became, as the `Logs` pane shows it.
        func event(sequence: UInt64, at receivedAt: Date) -> ErrorEvent {
            ErrorEvent(error: remote, sequence: sequence, timestamp: receivedAt, context: context)
        }
    }

    /// Runs `body` with a batch to ingest events into (``ingest(_:from:channel:countedBefore:into:)``), then posts
    /// what they show in the `Logs` pane.
    ///
    /// ```swift
    /// ingest.ingestBatch { batch in
    ///     for event in events { ingest.ingest(event, from: "otlp", channel: .otlp, into: &batch) }
    /// }
    /// ```
    public func ingestBatch<Result>(_ body: (inout Batch) throws -> Result) rethrows -> Result {
        var batch = Batch(receivedAt: now(), lines: sourceLines.withLock { $0 }, capacity: inbox.eventCapacity)
        defer {
            addErrors(of: &batch)
            let receivedAt = batch.receivedAt
            inbox.post(
                events: batch.shown.compactMap { shown -> ActionInbox.PendingEvent? in
                    switch shown {
                    case .added(let error): error.map { .stream($0) }
                    case .error: nil  // none is left: every error was added above
                    case .log(let log, let from, let channel):
                        .ready(Self.logEvent(log, from: from, receivedAt: receivedAt, channel: channel))
                    }
                }, passedOver: batch.passedOver)
        }
        return try body(&batch)
    }

    /// How many errors a batch gathers before adding them: enough that each lock is taken once for hundreds, few
    /// enough that they are still in the cache when each counter reads them (a file's batches, added whole, took
    /// more time to open a big log than adding its errors one by one).
    static let errorsAddedTogether = 256

    /// Adds the batch's errors not yet in the stream, together, and turns what they show into the pane's values.
    private func addErrors(of batch: inout Batch) {
        guard !batch.errors.isEmpty else { return }
        let sequences = stream.add(contentsOf: batch.errors.map { ($0.remote, $0.context) })
        for (offset, error) in batch.errors.enumerated() {
            follow(error, local: sequences.map { $0.lowerBound + UInt64(offset) })
        }
        // The entries that show these errors are the last `showsPending` of their case, near the end.
        var index = batch.shown.endIndex
        while batch.showsPending > 0 {
            index -= 1
            guard case .error(let offset) = batch.shown[index] else { continue }
            batch.shown[index] = .added(
                sequences.map {
                    batch.errors[offset].event(sequence: $0.lowerBound + UInt64(offset), at: batch.receivedAt)
                })
            batch.showsPending -= 1
        }
        batch.errors.removeAll(keepingCapacity: true)
    }

    /// Adds one remote error to the stream now; its sequence number, or `nil` if the stream is finished.
    private func add(_ error: PendingError) -> UInt64? {
        let local = stream.add(error.remote, context: error.context)
        follow(error, local: local)
        return local
    }

    /// What follows a remote error's adding: its trace watched, its producer's number joined to `local`.
    private func follow(_ error: PendingError, local: UInt64?) {
        // The trace the error belongs to is shown in its detail view: its spans are posted as they come.
        if let traceID = error.traceID { traces.watch(traceID, service: error.service) }
        // Remember which local event the producer's sequence number became, so its handling report joins it.
        if let local, let join = error.join { joins.remember(join, as: local) }
    }

    /// Whether `event` shows in the `Logs` pane when ingested: a log line, or an error the stream takes (one with
    /// an `exception.type`, as every error read or received has).
    public static func showsInLogs(_ event: WireEvent) -> Bool {
        showsInLogs(kind: event.kind, typed: event.exceptionType != nil)
    }

    /// Whether an event of `kind`, with an `exception.type` when `typed`, shows in the `Logs` pane.
    static func showsInLogs(kind: WireEvent.Kind, typed: Bool) -> Bool { kind == .log || (kind == .error && typed) }

    /// Ingests `event` as ``ingest(_:from:channel:countedBefore:)`` does, as part of `batch`.
    public func ingest(
        _ event: WireEvent, from: String?, channel: EventChannel?, countedBefore: Bool = false, into batch: inout Batch
    ) {
        // A log line passed over is only counted: nothing else reads it (but a recording, which sees every event).
        if event.kind == .log, batch.passesOver() {
            observer.notify(event)
            return
        }
        ingest(
            event, from: from, channel: channel, countedBefore: countedBefore, receivedAt: batch.receivedAt,
            lines: batch.lines, show: { batch.append($0) },
            add: { error in
                batch.errors.append(error)
                batch.append(.error(batch.errors.count - 1))
                if batch.errors.count == Self.errorsAddedTogether { addErrors(of: &batch) }
            },
            settle: { addErrors(of: &batch) })
    }

    /// The `Logs` pane's value of a remote log line.
    private static func logEvent(
        _ event: WireEvent, from: String?, receivedAt: Date, channel: EventChannel?
    ) -> DashboardEvent {
        DashboardEvent(log: event, provenance: Provenance(event, from: from, receivedAt: receivedAt, channel: channel))
    }

    /// Ingests one event read at `receivedAt`: `show` hears what a log line shows in the `Logs` pane, `add` gets a
    /// remote error to add to the stream (and show), and `settle` is called when the errors `add` got must be in the
    /// stream now (a handling report joins the local event its error became).
    private func ingest(
        _ event: WireEvent, from: String?, channel: EventChannel?, countedBefore: Bool, receivedAt: Date,
        lines: SourceLines?, show: (Shown) -> Void, add: (PendingError) -> Void, settle: () -> Void
    ) {
        observer.notify(event)
        switch event.kind {
        case .error:
            // Frames and source lines from the local disk (`run`, `--source-root`): read here, off the UI thread. The
            // event is copied only then: otherwise it is read where it lies.
            let error: PendingError?
            if let lines {
                var enriched = event
                lines.enrich(&enriched)
                error = Self.pendingError(
                    enriched, from: from, channel: channel, countedBefore: countedBefore, receivedAt: receivedAt)
            } else {
                error = Self.pendingError(
                    event, from: from, channel: channel, countedBefore: countedBefore, receivedAt: receivedAt)
            }
            if let error { add(error) }
        case .log:
            show(.log(event, from: from, channel: channel))
        case .metric:
            remoteMetrics.record(event)
        case .status:
            guard let name = event.statusName, let state = event.statusState else { return }
            inbox.post(
                .statusChanged(
                    StatusEntry(
                        service: event.serviceName ?? "remote", name: name, state: state,
                        health: event.effectiveStatusHealth, detail: event.statusDetail ?? "",
                        changedAt: event.time)))
        case .handling:
            // How the producer's handler tree dealt with one of its errors, joined to the event it became here.
            settle()
            guard let sequence = event.sequence, let outcome = event.handlingOutcome,
                let local = joins.local(for: HandlingJoins.Key(event, sequence: sequence, from: from))
            else { return }
            inbox.post(
                .handlingReported(
                    sequence: local,
                    HandlingSummary(
                        path: event.handlingPath ?? [], outcome: outcome, handled: event.handlingHandled ?? false)))
        }
    }

    /// A remote error made from `event` as one value from here to the screen and the store, with what follows its
    /// adding; `nil` when the event is not an error the stream takes.
    private static func pendingError(
        _ event: WireEvent, from: String?, channel: EventChannel?, countedBefore: Bool, receivedAt: Date
    ) -> PendingError? {
        guard
            let remote = RemoteError(
                event, from: from, receivedAt: receivedAt, channel: channel, countedBefore: countedBefore)
        else { return nil }
        return PendingError(
            remote: remote, context: event.errorContext(for: remote), traceID: event.traceID,
            service: event.serviceName,
            join: event.sequence.map { HandlingJoins.Key(event, sequence: $0, from: from) })
    }

    /// What the store remembers of the files it counted, and where to record how far they are counted now; none
    /// without a store.
    public struct ReadLedger: Sendable {
        /// The marks of the files with a device and inode.
        public var marks: @Sendable (_ device: UInt64, _ inode: UInt64) -> [FileMark]
        /// Records a mark once the events before it are counted.
        public var record: @Sendable (FileMark) -> Void
    }

    private let ledger = Mutex<ReadLedger?>(nil)

    /// Keeps what files were counted through `ledger` (set when a store is in use).
    func setReadLedger(_ ledger: ReadLedger) { self.ledger.withLock { $0 = ledger } }

    /// What the store counted of the files with `device` and `inode`.
    public func fileMarks(device: UInt64, inode: UInt64) -> [FileMark] {
        ledger.withLock { $0 }?.marks(device, inode) ?? []
    }

    /// Records that a file's lines up to `mark` are ingested (and so counted).
    public func recordRead(_ mark: FileMark) { ledger.withLock { $0 }?.record(mark) }

    /// Takes newer counts for rows already shown: a row that is not shown yet, or has ended, is left alone (a
    /// snapshot taken just before a producer disconnected must not revive its row). Posts once, and only when a
    /// row changed.
    public func refresh(_ statuses: [SourceStatus]) { board.refresh(statuses) }

    /// Records a source's new status and publishes every source, in the order they first appeared: every live
    /// one, and the most recent ``endedSourcesKept`` that ended, with the count of those forgotten.
    public func update(_ status: SourceStatus) { board.update(status) }

    /// Records several sources' new statuses and forgets the sources `ids`, publishing the list once: what one
    /// batch (an OTLP request naming thousands of resources) changed costs one post, not one per source.
    public func update(_ statuses: [SourceStatus], forgetting ids: [String] = []) {
        board.update(statuses, forgetting: ids)
    }

    /// Every source known, in the order they first appeared.
    public var statuses: [SourceStatus] { board.statuses }
}
