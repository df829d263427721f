import ErrorStreaming
import ErrorWatchStore
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Writes what the ``IssueTracker`` counts to the ``IssueStore`` every 100 ms on the dashboard's clock, in a task of
/// its own, never on the UI thread or in the way of ingest (counting only adds to the tracker's `Unstored`, under its
/// lock). After each write it reads back what changed in the store, by this process or another (a second dashboard,
/// `errorwatch issues resolve`), and hands it to the tracker, so the Issues view shows it at its next sample.
///
/// A write that fails (disk full, folder made read-only) pauses the store: the header says so, what was counted
/// meanwhile is not recorded, and the writer tries again after ``retryBackoff`` (1, 2, 4 s, then every 5 s). Killed,
/// the process loses at most what it counted since the last write (`docs/store.md` has the measurement).
public final class StoreWriter: Sendable {
    let store: IssueStore
    let tracker: IssueTracker
    let inbox: ActionInbox
    let clock: ErasedClock
    /// Who writes, for the triage history.
    let actor: String
    /// How often it writes.
    let interval: Duration
    /// How long a paused store waits before each new try.
    static let retryBackoff = Backoff.exponential(
        initial: .seconds(1), multiplier: 2, maximum: .seconds(5), jitter: 0)
    private let control = Mutex(Control())
    /// Held for a whole write, so that the writing task and `stop()` (or a test's `flush()`) never write at once.
    private let writing = Mutex(false)

    private struct Control {
        var task: Task<Void, Never>?
        var sequence: Int64 = 0
        var note: String?
        /// Failed writes in a row, and when the next try may be made.
        var failures = 0
        var retryAt: ErasedClock.Instant?
        var writes = 0
        /// When a write last had to prune: the header says so for a few seconds after.
        var prunedAt: ErasedClock.Instant?
    }

    init(
        store: IssueStore, tracker: IssueTracker, inbox: ActionInbox, clock: ErasedClock,
        interval: Duration = .milliseconds(100)
    ) {
        self.store = store
        self.tracker = tracker
        self.inbox = inbox
        self.clock = clock
        self.interval = max(interval, .milliseconds(1))
        actor = "dashboard \(getpid())"
    }

    /// Loads the stored issues into the tracker (the Issues view shows them at its first sample, counts continuing),
    /// then keeps what is counted from now on. Returns how many issues were loaded.
    @discardableResult
    func load() throws(IssueStoreError) -> Int {
        let (sequence, issues) = try store.issues(changedAfter: 0, limit: tracker.capacity)
        tracker.reconcile(issues)
        tracker.startStoring()
        control.withLock { $0.sequence = sequence }
        // Said once on the status line (and on stderr after exit by the command line), not held in the header.
        if let notice = store.openingNotice { inbox.post(.statusMessage(notice)) }
        return issues.count
    }

    /// Starts writing every ``interval`` on the clock, on `executor` (the global one for `nil`).
    func start(on executor: (any TaskExecutor)? = nil) {
        control.withLock { c in
            guard c.task == nil else { return }
            c.task = Task(executorPreference: executor) { [self, clock, interval] in
                while (try? await clock.sleep(for: interval)) != nil, !Task.isCancelled { flush() }
            }
        }
    }

    /// Stops the writing task and writes what is left; returns when the last write is done. Nothing is written after.
    func stop() {
        guard let task = control.withLock({ c in c.task.take() }) else { return }
        task.cancel()
        writing.withLock { stopped in
            guard !stopped else { return }
            write()
            stopped = true
        }
    }

    /// How many writes were made (for tests and `--stats`).
    var writes: Int { control.withLock { $0.writes } }

    /// One round: drain, write, read back. Runs in the writer's task (or a test's thread); never after `stop()`.
    func flush() {
        writing.withLock { stopped in if !stopped { write() } }
    }

    private func write() {
        let (drafts, marks) = tracker.drainForStore()
        let now = clock.now
        if let retry = control.withLock({ $0.retryAt }), now < retry { return }
        do {
            let batch = StoreBatch(deltas: drafts.map(Self.delta(from:)), fileMarks: marks)
            let outcome = try store.write(batch)
            let known = control.withLock { $0.sequence }
            let current = try store.sequence()
            if current != known {
                let (sequence, changed) = try store.issues(changedAfter: known, limit: tracker.capacity)
                tracker.reconcile(changed)
                control.withLock { $0.sequence = sequence }
            }
            let pruning = control.withLock { c in
                (c.retryAt, c.failures) = (nil, 0)
                if !batch.isEmpty { c.writes += 1 }
                if outcome.pruned { c.prunedAt = now }
                return c.prunedAt.map { $0.duration(to: now) < .seconds(5) } ?? false
            }
            post(note: pruning ? "store pruning (over \(store.maxSize / 1_048_576) MiB)" : nil)
        } catch {
            control.withLock { c in
                c.failures += 1
                c.retryAt = now.advanced(by: Self.retryBackoff.delay(afterAttempt: c.failures, random: 0))
            }
            post(note: "store paused: \(error.description)")
        }
    }

    private func post(note: String?) {
        let changed = control.withLock { c in
            defer { c.note = note }
            return c.note != note
        }
        if changed { inbox.post(.storeStatusChanged(note)) }
    }

    /// An issue's draft as the store takes it: its occurrences in full, as their producers sent them.
    static func delta(from draft: IssueTracker.Draft) -> IssueDelta {
        let events = (draft.unstored.first.map { [$0] } ?? []) + Array(draft.unstored.latest)
        let occurrences = events.map(occurrence(from:))
        // The words the Issues view shows: a log line's own message, then the exception's (as IssueTracker has them).
        let message = occurrences.last.map { o in
            IssueTracker.summary(of: o.logMessage.map { $0 + " — " + o.message } ?? o.message)
        }
        let title = draft.record.typeName + (message.map { ": " + $0 } ?? "")
        return IssueDelta(
            record: draft.record, title: title, count: draft.unstored.count, userCount: draft.unstored.userCount,
            hours: draft.unstored.hours, versions: draft.unstored.versions,
            environments: draft.unstored.environments, occurrences: occurrences,
            triage: draft.triage.map { (draft.record.triage, $0.action, $0.actor) })
    }

    /// One event in full: a remote error keeps its producer's fields; this process's own its classification.
    static func occurrence(from event: ErrorEvent) -> StoredOccurrence {
        if let remote = event.context.remote {
            let provenance = remote.provenance
            return StoredOccurrence(
                timestamp: provenance.time, receivedAt: provenance.receivedAt, message: remote.message,
                logMessage: remote.logMessage,
                userMessage: remote.userMessage.isEmpty ? nil : remote.userMessage, service: provenance.service,
                version: provenance.serviceVersion, environment: provenance.environment, host: provenance.host,
                pid: provenance.pid, source: event.source.isEmpty ? nil : event.source, traceID: provenance.traceID,
                spanID: provenance.spanID, stack: remote.stackTrace, attributes: event.metadata)
        }
        let classification = Classification(of: event.error)
        return StoredOccurrence(
            timestamp: event.timestamp, message: classification.technicalMessage,
            userMessage: classification.userMessage.isEmpty ? nil : classification.userMessage,
            source: event.source.isEmpty ? nil : event.source, attributes: event.metadata)
    }
}
