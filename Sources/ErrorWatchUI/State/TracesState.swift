import DequeModule

/// The traces slice of ``DashboardState``: a row (``TraceSummary``) for every trace the runtime's trace store holds,
/// for the Traces view, with its order and selection; and the latest ``TraceSnapshot`` of the traces an error belongs
/// to or the user opened, for the waterfalls of the detail views. Bounded: the rows follow the store's own budget
/// (each row says which older traces the store has evicted) and at most ``rowCapacity`` are kept; the
/// ``capacity`` snapshots changed most recently are kept.
public struct TracesState: Sendable, Equatable {
    /// The fields of a row its place in every order depends on.
    struct RowKey: Hashable {
        var start: UInt64
        var arrival: UInt64
        /// `nil` when unknown.
        var duration: UInt64?
        var failed: Int

        init(_ summary: TraceSummary) {
            start = summary.startUnixNano
            arrival = summary.arrival
            duration = summary.durationNanos
            failed = summary.failedSpans
        }
    }

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
    /// What the order needs of each row, in a plain array (slot by slot, ``ids`` beside it): a frame without a query
    /// orders the rows by these alone, never copying a row (50,000 rows' strings and arrays cost 20 ms to copy).
    private var keys: [RowKey] = []
    private var ids: [String] = []
    private var slots: [String: Int] = [:]
    /// Whether each slot's row passes ``matchedQuery``, kept as rows arrive, change and leave, and found again when
    /// the query changes: a frame with a query orders the passing rows without matching every row again (50,000
    /// rows' query subjects cost tens of milliseconds a frame).
    private var passes: [Bool] = []
    /// The query ``passes`` holds the answers of (the dashboard's, once the root reducer hands it over).
    public private(set) var matchedQuery = Query.empty
    /// The first rows in ``sortOrder`` (their slots), kept as rows arrive, change and leave: a frame without a query
    /// draws from it without looking at the other rows. It holds the first `top.count` rows of all, at most
    /// ``topLimit``; when rows leave it, it is found again once it is down to half.
    private var top: [Int] = []
    /// Rows kept in order at most.
    static let topLimit = 256
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
        rows.sorted { precedes($0, $1, in: order) }
    }

    /// Whether `a` comes before `b` in `order`.
    static func precedes(_ a: TraceSummary, _ b: TraceSummary, in order: TraceOrder) -> Bool {
        precedes(RowKey(a), a.traceID, RowKey(b), b.traceID, in: order)
    }

    /// Whether the row of `a` (trace `aID`) comes before that of `b` in `order`; the ids only break ties of arrival.
    static func precedes(
        _ a: RowKey, _ aID: @autoclosure () -> String, _ b: RowKey, _ bID: @autoclosure () -> String,
        in order: TraceOrder
    ) -> Bool {
        func newer() -> Bool {
            // Unknown starts (0) sort after every known one.
            if a.start != b.start {
                if a.start == 0 || b.start == 0 { return b.start == 0 }
                return a.start > b.start
            }
            return a.arrival != b.arrival ? a.arrival > b.arrival : aID() > bID()
        }
        switch order {
        case .time:
            return newer()
        case .duration:
            switch (a.duration, b.duration) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return newer()
            }
        case .errors:
            return a.failed != b.failed ? a.failed > b.failed : newer()
        }
    }

    /// How many rows pass `filter`, and the selected row's place among them (`nil` when no row is selected or it
    /// does not pass): one pass over the rows, no sorting.
    public func count(_ filter: FilterState) -> (count: Int, selected: Int?) {
        let chosen = selectedID.flatMap { rows[$0] }.flatMap { filter.query.isEmpty || filter.matches($0) ? $0 : nil }
        if filter.query.isEmpty {
            guard let chosen, let slot = slots[chosen.traceID] else { return (keys.count, nil) }
            if let place = top.firstIndex(of: slot) { return (keys.count, place) }
            let key = keys[slot]
            var place = 0
            for (other, otherKey) in keys.enumerated()
            where Self.precedes(otherKey, ids[other], key, chosen.traceID, in: sortOrder) {
                place += 1
            }
            return (keys.count, place)
        }
        var count = 0
        var place = 0
        if filter.query == matchedQuery {
            let chosenKey = chosen.map(RowKey.init)
            for slot in keys.indices where passes[slot] {
                count += 1
                if let chosen, let chosenKey,
                    Self.precedes(keys[slot], ids[slot], chosenKey, chosen.traceID, in: sortOrder)
                {
                    place += 1
                }
            }
            return (count, chosen == nil ? nil : place)
        }
        for row in rows.values where filter.query.isEmpty || filter.matches(row) {
            count += 1
            if let chosen, Self.precedes(row, chosen, in: sortOrder) { place += 1 }
        }
        return (count, chosen == nil ? nil : place)
    }

    /// The first `limit` rows that pass `filter`, in ``sortOrder``: what a frame of the Traces view draws, found
    /// in one pass that keeps only the best `limit` (a frame with 50,000 traces held sorts none of them).
    public func leading(_ limit: Int, _ filter: FilterState) -> [TraceSummary] {
        guard limit > 0 else { return [] }
        if filter.query.isEmpty {
            if limit <= top.count || top.count == keys.count { return top.prefix(limit).compactMap { rows[ids[$0]] } }
            return best(limit).compactMap { rows[ids[$0]] }
        }
        if filter.query == matchedQuery { return best(limit, passingOnly: true).compactMap { rows[ids[$0]] } }
        var best: [TraceSummary] = []
        best.reserveCapacity(min(limit, rows.count) + 1)
        for row in rows.values where filter.matches(row) {
            if best.count == limit, !Self.precedes(row, best[limit - 1], in: sortOrder) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes(best[middle], row, in: sortOrder) { low = middle + 1 } else { high = middle }
            }
            best.insert(row, at: low)
            if best.count > limit { best.removeLast() }
        }
        return best
    }

    /// Whether the row in `a` comes before the row in `b`.
    private func before(_ a: Int, _ b: Int) -> Bool {
        Self.precedes(keys[a], ids[a], keys[b], ids[b], in: sortOrder)
    }

    /// The slots of the first `limit` rows (of those that pass ``matchedQuery`` when `passingOnly`), in one pass
    /// over the keys that keeps only the best `limit`.
    private func best(_ limit: Int, passingOnly: Bool = false) -> [Int] {
        guard limit > 0 else { return [] }
        var best: [Int] = []
        best.reserveCapacity(min(limit, keys.count) + 1)
        for slot in keys.indices where !passingOnly || passes[slot] {
            if best.count == limit, !before(slot, best[limit - 1]) { continue }
            best.insert(slot, at: insertionPoint(of: slot, in: best))
            if best.count > limit { best.removeLast() }
        }
        return best
    }

    /// Where `slot` goes in `ordered` (slots in order), after those that come before it.
    private func insertionPoint(of slot: Int, in ordered: [Int]) -> Int {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if before(ordered[middle], slot) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Keeps ``top`` right after the row in `slot` arrived or changed (`moved`: it may have been in it already).
    private mutating func placeInTop(_ slot: Int, moved: Bool) {
        let complete = top.count == keys.count - (moved ? 0 : 1)
        guard complete || !top.isEmpty else { return top = best(Self.topLimit) }
        if moved, let index = top.firstIndex(of: slot) { top.remove(at: index) }
        // Past the last row kept, a row belongs only when every row is kept (the others may come before it).
        if let last = top.last, !before(slot, last), !complete { return refillTopIfShort() }
        top.insert(slot, at: insertionPoint(of: slot, in: top))
        if top.count > Self.topLimit { top.removeLast() }
    }

    /// Finds ``top`` again when rows leaving it took it down to half of what it could hold.
    private mutating func refillTopIfShort() {
        if top.count < min(Self.topLimit / 2, keys.count) { top = best(Self.topLimit) }
    }

    /// The selected row among those that pass `filter`: the selected id's, else the first.
    public func selected(_ filter: FilterState) -> TraceSummary? {
        if let selectedID, let row = rows[selectedID], filter.matches(row) { return row }
        return leading(1, filter).first
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
        /// The dashboard's query is now `query`: which rows pass is found again (one pass over the rows).
        case queryChanged(Query)
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .traceChanged(let snapshot):
            return keep(snapshot)
        case .summarized(let summary):
            return keep(summary)
        case .selectionMoved(let move, let page, let filter):
            let (count, current) = count(filter)
            guard count > 0 else { return true }
            let index = move.selection(from: current ?? 0, page: page, count: count, top: 0, bottom: count - 1)
            selectedID = leading(index + 1, filter).last?.traceID
            scroll = ScrollMove.firstRow(showing: index, from: scroll, page: page, count: count)
        case .orderCycled:
            let orders = TraceOrder.allCases
            sortOrder = orders[(orders.firstIndex(of: sortOrder)! + 1) % orders.count]
            top = best(Self.topLimit)
            selectedID = nil
            scroll = 0
        case .selectionReset:
            selectedID = nil
            scroll = 0
        case .queryChanged(let query):
            guard query != matchedQuery else { return false }
            matchedQuery = query
            passes = ids.map { id in rows[id].map(passesQuery) ?? false }
            // What is drawn depends on the filter the view is given, not on these answers.
            return false
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

    /// Removes the order key of `id`: the last slot moves into its place.
    private mutating func forgetKey(of id: String) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        if let index = top.firstIndex(of: slot) { top.remove(at: index) }
        let last = keys.count - 1
        if slot != last {
            keys[slot] = keys[last]
            ids[slot] = ids[last]
            passes[slot] = passes[last]
            slots[ids[slot]] = slot
            if let index = top.firstIndex(of: last) { top[index] = slot }
        }
        keys.removeLast()
        ids.removeLast()
        passes.removeLast()
    }

    /// Whether `row` passes ``matchedQuery``.
    private func passesQuery(_ row: TraceSummary) -> Bool {
        matchedQuery.isEmpty || matchedQuery.matches(row.querySubject)
    }

    /// Keeps a trace's row, dropping from the oldest the rows of traces the store has evicted since (those that
    /// arrived before the row's ``TraceSummary/heldFrom``) and those over ``rowCapacity``; returns whether anything
    /// changed.
    private mutating func keep(_ summary: TraceSummary) -> Bool {
        let previous = rows.updateValue(summary, forKey: summary.traceID)
        guard previous != summary else { return false }
        if let slot = slots[summary.traceID] {
            keys[slot] = RowKey(summary)
            passes[slot] = passesQuery(summary)
            placeInTop(slot, moved: true)
        } else {
            slots[summary.traceID] = keys.count
            keys.append(RowKey(summary))
            ids.append(summary.traceID)
            passes.append(passesQuery(summary))
            placeInTop(keys.count - 1, moved: false)
        }
        if previous?.arrival != summary.arrival { arrivals.append((summary.arrival, summary.traceID)) }
        heldFrom = max(heldFrom, summary.heldFrom)
        while let first = arrivals.first, first.arrival < heldFrom || rows.count > Self.rowCapacity {
            arrivals.removeFirst()
            // An entry of a trace received again (a later arrival) is only passed over.
            if rows[first.id]?.arrival == first.arrival {
                rows.removeValue(forKey: first.id)
                forgetKey(of: first.id)
            }
        }
        refillTopIfShort()
        return true
    }
}
