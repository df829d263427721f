import DequeModule
import ErrorStreaming
import ErrorWatchUI
import OrderedCollections

/// The spans received, kept by trace within a budget of spans and bytes: when either is exceeded, the oldest
/// traces (by their first span's arrival) go first, whole, and are counted. One trace keeps at most
/// ``Budget/spansPerTrace`` spans; later ones are counted as dropped. A pure value: ``TraceBoard`` runs it under a
/// lock and posts what changed.
///
/// ```swift
/// var store = TraceStore(budget: .init(spans: 1_000, bytes: 1 << 20))
/// let outcome = store.insert([span], into: "4bf92f3577b34da6a3ce929d0e0e4736")
/// let snapshot = store.snapshot(of: "4bf92f3577b34da6a3ce929d0e0e4736")
/// ```
public struct TraceStore: Sendable {
    /// How much the store holds at most.
    public struct Budget: Sendable, Hashable {
        /// Spans kept across all traces.
        public var spans: Int
        /// Bytes kept across all traces (an estimate of each span's share: its fields, strings and index entry).
        public var bytes: Int

        /// A budget; the default is 50,000 spans and 32 MiB. The dashboard peaked at 87–90 MB with it while 50
        /// clients sent it 100,000 spans a second over OTLP/HTTP and at 94–99 MB over OTLP/gRPC; over HTTP it
        /// peaked at 104 MB with twice that budget (docs/otlp.md, "Load").
        /// At everyday rates that is minutes of traces; at that one, half a second.
        public init(spans: Int = 50_000, bytes: Int = 32 * 1024 * 1024) {
            self.spans = max(1, spans)
            self.bytes = max(1, bytes)
        }

        /// Spans kept of one trace: a tenth of the budget, at least 100 (never more than the budget).
        public var spansPerTrace: Int { min(spans, max(100, spans / 10)) }
    }

    /// What the store did, so far.
    public struct Statistics: Sendable, Hashable {
        /// Traces held now.
        public var traces = 0
        /// Spans held now.
        public var spans = 0
        /// Bytes held now (estimated).
        public var bytes = 0
        /// Traces evicted to stay within the budget, and their spans.
        public var evictedTraces: UInt64 = 0
        public var evictedSpans: UInt64 = 0
        /// Spans not kept because their trace already held ``Budget/spansPerTrace``.
        public var droppedSpans: UInt64 = 0

        /// Nothing held yet.
        public init() {}
    }

    private struct Trace {
        var spans: [TraceSpan] = []
        /// Where each span id sits in `spans` (the first span received with that id).
        var index: [UInt64: Int] = [:]
        /// Spans whose parent was not received yet, by the parent's id: when it comes, the calls between services
        /// they make are counted.
        var awaitingParent: [UInt64: [Int]] = [:]
        var bytes: Int
        var dropped = 0
        /// Whether an error belongs to it: its changes are posted to the UI.
        var watched = false
        /// Its row in the Traces view, kept as spans arrive.
        var summary: TraceSummary

        init(watched: Bool, summary: TraceSummary, bytesHeld: Int) {
            self.watched = watched
            self.summary = summary
            bytes = bytesHeld
        }
    }

    /// The budget in force.
    public let budget: Budget
    /// What the store did so far.
    public private(set) var statistics = Statistics()
    private var traces: [String: Trace] = [:]
    /// Trace ids in order of their first span's arrival (a trace evicted and received again joins at the end).
    private var order: Deque<String> = []
    /// The arrival number of the last trace that started (its first span received).
    private var arrivals: UInt64 = 0
    /// Traces an error named before any of their spans came, oldest first.
    private var pendingWatches: OrderedSet<String> = []
    /// The services that sent spans (at most ``serviceLimit``; a span without a service counts as `""`): an error
    /// of one of them may wait for its trace's spans, an error of another has none coming.
    public private(set) var spanServices: Set<String> = []
    /// Services remembered as sending spans, at most.
    public static let serviceLimit = 256

    /// Spans listed at most in one snapshot: every failing span and its ancestors first, then the rest in order.
    public static let snapshotLimit = 400

    /// An empty store.
    public init(budget: Budget = Budget()) {
        self.budget = budget
    }

    /// What one insertion changed for the traces an error belongs to.
    public struct Change: Sendable, Hashable {
        /// The inserted trace, when it is watched and still held.
        public var changedWatched: String?
        /// The last snapshots of watched traces evicted to make room.
        public var evictedWatched: [TraceSnapshot] = []
        /// The inserted trace's row for the Traces view, when it is still held.
        public var summary: TraceSummary?
        /// Calls from one service to another this insertion completed: a span held with its parent of another
        /// service, each counted once, when the second of the two arrives.
        var calls: [ServiceCall] = []
    }

    /// Adds `spans` of `traceID`; evicts the oldest traces while over the budget.
    public mutating func insert(_ spans: [TraceSpan], into traceID: String) -> Change {
        var change = Change()
        guard !spans.isEmpty else { return change }
        if traces[traceID] == nil {
            // An error that named the trace before its first span came watches it from the start.
            arrivals += 1
            traces[traceID] = Trace(
                watched: pendingWatches.remove(traceID) != nil,
                summary: TraceSummary(traceID: traceID, arrival: arrivals), bytesHeld: Self.summaryBytes)
            statistics.bytes += Self.summaryBytes
            order.append(traceID)
            statistics.traces += 1
        }
        let watched = traces[traceID]!.watched
        // In place: the trace's arrays are uniquely referenced while they grow.
        var trace = traces.removeValue(forKey: traceID)!
        for span in spans {
            if spanServices.count < Self.serviceLimit { spanServices.insert(span.service ?? "") }
            guard trace.spans.count < budget.spansPerTrace else {
                trace.dropped += 1
                trace.summary.droppedSpans += 1
                statistics.droppedSpans += 1
                continue
            }
            let position = trace.spans.count
            let first = trace.index[span.spanID] == nil
            if first { trace.index[span.spanID] = position }
            trace.spans.append(span)
            // A span sent again (its id held already) is not a second call.
            if first, let parentID = span.parentSpanID {
                if let parent = trace.index[parentID] {
                    Self.call(from: trace.spans[parent], to: span).map { change.calls.append($0) }
                } else {
                    trace.awaitingParent[parentID, default: []].append(position)
                }
            }
            if first, let children = trace.awaitingParent.removeValue(forKey: span.spanID) {
                for child in children { Self.call(from: span, to: trace.spans[child]).map { change.calls.append($0) } }
            }
            trace.summary.add(span)
            let bytes = Self.bytes(of: span)
            trace.bytes += bytes
            statistics.bytes += bytes
            statistics.spans += 1
        }
        traces[traceID] = trace
        change.evictedWatched = evictOverBudget()
        if watched, traces[traceID] != nil { change.changedWatched = traceID }
        change.summary = summary(of: traceID)
        return change
    }

    /// The call `child` answers for `parent`, when they belong to different services: failed when the child failed
    /// or the parent is a client span that did.
    static func call(from parent: TraceSpan, to child: TraceSpan) -> ServiceCall? {
        let caller = parent.service ?? "unknown_service"
        let callee = child.service ?? "unknown_service"
        guard caller != callee else { return nil }
        let failed =
            child.status == .error || child.errors > 0 || (parent.kind == .client && parent.status == .error)
        let micros =
            child.startUnixNano != 0 && child.endUnixNano >= child.startUnixNano
            ? (child.endUnixNano - child.startUnixNano) / 1_000 : nil
        return ServiceCall(caller: caller, callee: callee, failed: failed, micros: micros)
    }

    /// Marks `traceID` as one an error belongs to: its changes are posted from now on, and from its first span
    /// when none came yet (at most ``pendingWatchLimit`` such traces are remembered, the oldest forgotten first).
    /// Returns whether it holds spans.
    public mutating func watch(_ traceID: String) -> Bool {
        guard traces[traceID] != nil else {
            pendingWatches.append(traceID)
            if pendingWatches.count > Self.pendingWatchLimit { pendingWatches.removeFirst() }
            return false
        }
        traces[traceID]!.watched = true
        return true
    }

    /// Whether `traceID` is watched (or will be, from its first span).
    public func isWatched(_ traceID: String) -> Bool {
        traces[traceID]?.watched ?? pendingWatches.contains(traceID)
    }

    /// Traces named by errors before any of their spans came, remembered at most.
    public static let pendingWatchLimit = 1_024

    /// The spans of `traceID` to show, or `nil` when the store holds none of it.
    public func snapshot(of traceID: String, evicted: Bool = false) -> TraceSnapshot? {
        traces[traceID].map { Self.snapshot(traceID, $0, evicted: evicted) }
    }

    /// The row of `traceID` in the Traces view, or `nil` when the store holds none of it. Its
    /// ``TraceSummary/heldFrom`` is the arrival number of the oldest trace held now.
    public func summary(of traceID: String) -> TraceSummary? {
        guard var summary = traces[traceID]?.summary else { return nil }
        summary.heldFrom = order.first.flatMap { traces[$0]?.summary.arrival } ?? summary.arrival
        return summary
    }

    /// The rows of every trace held, oldest first.
    public var summaries: [TraceSummary] { order.compactMap { summary(of: $0) } }

    /// Evicts oldest traces while over the budget; returns the watched ones evicted.
    private mutating func evictOverBudget() -> [TraceSnapshot] {
        var evicted: [TraceSnapshot] = []
        while statistics.spans > budget.spans || statistics.bytes > budget.bytes, let oldest = order.popFirst() {
            guard let trace = traces.removeValue(forKey: oldest) else { continue }
            if trace.watched { evicted.append(Self.snapshot(oldest, trace, evicted: true)) }
            statistics.traces -= 1
            statistics.spans -= trace.spans.count
            statistics.bytes -= trace.bytes
            statistics.evictedTraces += 1
            statistics.evictedSpans += UInt64(trace.spans.count)
        }
        return evicted
    }

    private static func snapshot(_ traceID: String, _ trace: Trace, evicted: Bool) -> TraceSnapshot {
        let (spans, unshownParents) = selection(trace)
        return TraceSnapshot(
            traceID: traceID, spans: spans, storedSpans: trace.spans.count, droppedSpans: trace.dropped,
            evicted: evicted, unshownParents: unshownParents)
    }

    /// Up to ``snapshotLimit`` spans: the failing ones and their ancestors (walked with a bound, so a cycle ends),
    /// then the others, in the order received; and the parents of those that the store holds but leaves out, so
    /// that none is called "not received".
    private static func selection(_ trace: Trace) -> (spans: [TraceSpan], unshownParents: Set<UInt64>) {
        guard trace.spans.count > snapshotLimit else { return (trace.spans, []) }
        var chosen = Set<Int>()
        for (position, span) in trace.spans.enumerated() where span.failed {
            guard chosen.count < snapshotLimit / 2 else { break }
            var current: Int? = position
            var hops = 0
            while let index = current, hops < 64, chosen.insert(index).inserted {
                hops += 1
                current = trace.spans[index].parentSpanID.flatMap { trace.index[$0] }
            }
        }
        for position in trace.spans.indices where chosen.count < snapshotLimit { chosen.insert(position) }
        var unshown = Set<UInt64>()
        for position in chosen {
            guard let parent = trace.spans[position].parentSpanID, let index = trace.index[parent],
                !chosen.contains(index)
            else { continue }
            unshown.insert(parent)
        }
        return (chosen.sorted().map { trace.spans[$0] }, unshown)
    }

    /// A trace's row's estimated share of memory (its names are the spans' own strings, shared).
    static let summaryBytes =
        MemoryLayout<TraceSummary>.stride + 2 * TraceSummary.namesKept * MemoryLayout<String>.stride

    /// A span's estimated share of memory: the value, its strings' bytes, and its entries in the arrays, the index
    /// and (while its parent is missing) the spans awaiting their parent.
    static func bytes(of span: TraceSpan) -> Int {
        var bytes =
            MemoryLayout<TraceSpan>.stride + 48 + (span.parentSpanID == nil ? 0 : 24) + span.name.utf8.count
            + (span.service?.utf8.count ?? 0)
            + (span.statusMessage?.utf8.count ?? 0) + bytes(of: span.attributes)
        for event in span.events {
            bytes += MemoryLayout<TraceSpan.Event>.stride + event.name.utf8.count + Self.bytes(of: event.attributes)
        }
        for link in span.links {
            bytes += MemoryLayout<TraceSpan.Link>.stride + link.traceID.utf8.count + Self.bytes(of: link.attributes)
        }
        return bytes
    }

    /// Attributes' estimated share: keys, values and a dictionary entry each.
    static func bytes(of attributes: [String: String]) -> Int {
        attributes.reduce(0) { $0 + 2 * MemoryLayout<String>.stride + 16 + $1.key.utf8.count + $1.value.utf8.count }
    }
}
