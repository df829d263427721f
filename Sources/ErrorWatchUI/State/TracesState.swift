import DequeModule

/// The traces slice of ``DashboardState``: a row (``TraceSummary``) for every trace the runtime's trace store holds,
/// for the Traces view, with its order and selection; and the latest ``TraceSnapshot`` of the traces an error belongs
/// to or the user opened, for the waterfalls of the detail views. Bounded: the rows follow the store's own budget
/// (each row says which older traces the store has evicted) and at most ``rowCapacity`` are kept; the
/// ``capacity`` snapshots changed most recently are kept.
public struct TracesState: Sendable, Equatable {
    public static func == (lhs: TracesState, rhs: TracesState) -> Bool {
        (lhs.snapshots, lhs.rows, lhs.heldFrom, lhs.sortOrder, lhs.selectedID, lhs.scroll)
            == (rhs.snapshots, rhs.rows, rhs.heldFrom, rhs.sortOrder, rhs.selectedID, rhs.scroll)
            && lhs.order == rhs.order
    }

    /// Traces kept.
    public static let capacity = 64
    /// Rows kept at most: the default trace store holds at most this many traces (one span each).
    public static let rowCapacity = 50_000

    /// The latest snapshot per trace id.
    public private(set) var snapshots: [String: TraceSnapshot] = [:]
    /// Trace ids, least recently changed first.
    private var order: [String] = []
    /// The Traces view's rows, by trace id.
    public private(set) var rows: [String: TraceSummary] = [:]
    /// The arrival number of the oldest trace the store holds, as last heard: rows that arrived before it are gone.
    public private(set) var heldFrom: UInt64 = 0
    /// The rows' arrival numbers and ids in the order the rows first came (nearly by arrival): rows leave from the
    /// front.
    private var arrivals: Deque<(arrival: UInt64, id: String)> = []
    /// How the Traces view is sorted.
    public private(set) var sortOrder = TraceOrder.time
    /// The selected trace's id; `nil` selects the first row.
    public private(set) var selectedID: String?
    /// First row shown.
    public private(set) var scroll = 0

    /// No trace yet.
    public init() {}

    /// The latest snapshot of `traceID`, if kept.
    public func snapshot(of traceID: String) -> TraceSnapshot? { snapshots[traceID] }

    /// The rows that pass `filter`, in ``sortOrder``.
    public func visible(_ filter: FilterState) -> [TraceSummary] {
        let passing = filter.query.isEmpty ? Array(rows.values) : rows.values.filter { filter.matches($0) }
        return Self.sorted(passing, by: sortOrder)
    }

    /// `rows` in `order`; ties are broken by arrival (latest first), then by id, so the order is total.
    static func sorted(_ rows: [TraceSummary], by order: TraceOrder) -> [TraceSummary] {
        func newer(_ a: TraceSummary, _ b: TraceSummary) -> Bool {
            // Unknown starts (0) sort after every known one.
            if a.startUnixNano != b.startUnixNano {
                if a.startUnixNano == 0 || b.startUnixNano == 0 { return b.startUnixNano == 0 }
                return a.startUnixNano > b.startUnixNano
            }
            return (a.arrival, a.traceID) > (b.arrival, b.traceID)
        }
        switch order {
        case .time:
            return rows.sorted(by: newer)
        case .duration:
            return rows.sorted { a, b in
                switch (a.durationNanos, b.durationNanos) {
                case (let x?, let y?) where x != y: x > y
                case (.some, nil): true
                case (nil, .some): false
                default: newer(a, b)
                }
            }
        case .errors:
            return rows.sorted { a, b in a.failedSpans != b.failedSpans ? a.failedSpans > b.failedSpans : newer(a, b) }
        }
    }

    /// The selected row among those that pass `filter`: the selected id's, else the first.
    public func selected(_ filter: FilterState) -> TraceSummary? {
        if let selectedID, let row = rows[selectedID], filter.matches(row) { return row }
        return visible(filter).first
    }

    /// What changes the traces slice.
    enum Action: Sendable {
        /// The spans received of a trace changed: its latest snapshot.
        case traceChanged(TraceSnapshot)
        /// A trace's row changed (or is new).
        case summarized(TraceSummary)
        /// A scroll key in the Traces view, `page` rows a page, over the rows that pass `filter`.
        case selectionMoved(ScrollMove, page: Int, filter: FilterState)
        /// `O` in the Traces view: the next order, from the first row.
        case orderCycled
        /// A query was applied, or the view was shown: the list starts again from the first row.
        case selectionReset
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .traceChanged(let snapshot):
            return keep(snapshot)
        case .summarized(let summary):
            return keep(summary)
        case .selectionMoved(let move, let page, let filter):
            let shown = visible(filter)
            guard !shown.isEmpty else { return true }
            let current = selectedID.flatMap { id in shown.firstIndex { $0.traceID == id } } ?? 0
            let index = move.selection(from: current, page: page, count: shown.count, top: 0, bottom: shown.count - 1)
            selectedID = shown[index].traceID
            scroll = ScrollMove.firstRow(showing: index, from: scroll, page: page, count: shown.count)
        case .orderCycled:
            let orders = TraceOrder.allCases
            sortOrder = orders[(orders.firstIndex(of: sortOrder)! + 1) % orders.count]
            selectedID = nil
            scroll = 0
        case .selectionReset:
            selectedID = nil
            scroll = 0
        }
        return true
    }

    /// Keeps a trace's new snapshot; returns whether anything changed.
    private mutating func keep(_ snapshot: TraceSnapshot) -> Bool {
        guard snapshots[snapshot.traceID] != snapshot else { return false }
        if snapshots.updateValue(snapshot, forKey: snapshot.traceID) != nil {
            order.removeAll { $0 == snapshot.traceID }
        }
        order.append(snapshot.traceID)
        if order.count > Self.capacity {
            for id in order.prefix(order.count - Self.capacity) { snapshots.removeValue(forKey: id) }
            order.removeFirst(order.count - Self.capacity)
        }
        return true
    }

    /// Keeps a trace's row, dropping from the oldest the rows of traces the store has evicted since (those that
    /// arrived before the row's ``TraceSummary/heldFrom``) and those over ``rowCapacity``; returns whether anything
    /// changed.
    private mutating func keep(_ summary: TraceSummary) -> Bool {
        let previous = rows.updateValue(summary, forKey: summary.traceID)
        guard previous != summary else { return false }
        if previous?.arrival != summary.arrival { arrivals.append((summary.arrival, summary.traceID)) }
        heldFrom = max(heldFrom, summary.heldFrom)
        while let first = arrivals.first, first.arrival < heldFrom || rows.count > Self.rowCapacity {
            arrivals.removeFirst()
            // An entry of a trace received again (a later arrival) is only passed over.
            if rows[first.id]?.arrival == first.arrival { rows.removeValue(forKey: first.id) }
        }
        return true
    }
}
