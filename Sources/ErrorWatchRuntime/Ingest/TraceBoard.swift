import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import Synchronization

/// Runs the ``TraceStore`` under a lock for the receivers' threads and tells the UI about the traces errors belong
/// to: when an error names a trace, that trace is watched, and each change to a watched trace (spans arriving, or
/// its eviction) posts a ``TraceSnapshot``, the latest per trace kept by the inbox. Posting happens after the lock
/// is released. Every insertion also posts the rows of the traces it touched for the Traces view (latest per trace).
final class TraceBoard: Sendable {
    private let store: Mutex<TraceStore>
    private let inbox: ActionInbox

    init(inbox: ActionInbox, budget: TraceStore.Budget) {
        self.inbox = inbox
        store = Mutex(TraceStore(budget: budget))
    }

    /// What the store holds and did so far.
    var statistics: TraceStore.Statistics { store.withLock { $0.statistics } }

    /// The budget in force.
    var budget: TraceStore.Budget { store.withLock { $0.budget } }

    /// Keeps `spans` (of any traces), posting the watched traces they changed. Returns the calls between services
    /// they completed, for the service map.
    @discardableResult
    func insert(_ spans: [TraceSpan]) -> [ServiceCall] {
        guard !spans.isEmpty else { return [] }
        // Grouped by trace in order of first appearance: one insertion, and at most one snapshot, per trace.
        var order: [String] = []
        var byTrace: [String: [TraceSpan]] = [:]
        for span in spans {
            if byTrace[span.traceID] == nil { order.append(span.traceID) }
            byTrace[span.traceID, default: []].append(span)
        }
        let (snapshots, summaries, calls): ([TraceSnapshot], [TraceSummary], [ServiceCall]) = store.withLock { store in
            var snapshots: [TraceSnapshot] = []
            var summaries: [TraceSummary] = []
            var calls: [ServiceCall] = []
            var changed: [String] = []
            for traceID in order {
                let change = store.insert(byTrace[traceID] ?? [], into: traceID)
                snapshots += change.evictedWatched
                changed.removeAll { id in change.evictedWatched.contains { $0.traceID == id } }
                if let id = change.changedWatched, !changed.contains(id) { changed.append(id) }
                if let summary = change.summary { summaries.append(summary) }
                calls += change.calls
            }
            return (snapshots + changed.compactMap { store.snapshot(of: $0) }, summaries, calls)
        }
        for snapshot in snapshots { inbox.post(.traceChanged(snapshot)) }
        for summary in summaries { inbox.post(.traceSummarized(summary)) }
        return calls
    }

    /// The user opened `traceID` (in the Traces view): watch it, and post what the store holds of it now, or an
    /// evicted snapshot without spans when it holds none any more.
    func show(_ traceID: String) {
        let snapshot: TraceSnapshot = store.withLock { store in
            _ = store.watch(traceID)
            return store.snapshot(of: traceID) ?? TraceSnapshot(traceID: traceID, spans: [], evicted: true)
        }
        inbox.post(.traceChanged(snapshot))
    }

    /// An error of `service` belongs to `traceID`: watch it, and post what the store holds of it now. A trace none
    /// of whose spans came yet is posted empty when its spans are expected (its service, or any when it names none,
    /// sent spans before), so the detail view says it waits for them; otherwise nothing is posted, and the view
    /// does not promise spans that are never sent here.
    func watch(_ traceID: String, service: String?) {
        let snapshot: TraceSnapshot? = store.withLock { store in
            guard !store.isWatched(traceID) else { return nil }
            if store.watch(traceID) { return store.snapshot(of: traceID) }
            let expected = service.map { store.spanServices.contains($0) } ?? !store.spanServices.isEmpty
            return expected ? TraceSnapshot(traceID: traceID, spans: []) : nil
        }
        if let snapshot { inbox.post(.traceChanged(snapshot)) }
    }
}
