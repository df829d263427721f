import HeapModule

/// A receiver's senders as a pure table, indexed by key, that forgets the least recently heard sender past its
/// capacity in amortised O(log n): never a scan of every sender per record.
///
/// Recency is a counter bumped at each touch; a min-heap holds `(touch, key)` pairs and may hold stale ones (a
/// sender touched again since), skipped when they reach the top. The heap is rebuilt from the rows when stale
/// pairs outnumber live ones, so it stays within twice the rows.
struct RecentSourceTable {
    typealias Row = SenderStatus

    private struct Touch: Comparable {
        var tick: UInt64
        var key: String

        static func < (lhs: Touch, rhs: Touch) -> Bool { lhs.tick < rhs.tick }
    }

    /// The most senders kept.
    let capacity: Int
    private(set) var rows: [String: Row] = [:]
    private var touched: [String: UInt64] = [:]
    private var recency = Heap<Touch>()
    private var tick: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a source table keeps at least one sender")
        self.capacity = capacity
    }

    /// The sender's row after `body` changed it (a new row when unknown); the keys of senders forgotten to make
    /// room for it are appended to `forgotten`.
    @discardableResult
    mutating func touch(
        _ key: String, peer: String, forgetting forgotten: inout [String], _ body: (inout Row) -> Void
    ) -> Row {
        var status = rows[key] ?? Row(key: key, peer: peer)
        status.peer = peer
        body(&status)
        rows[key] = status
        tick += 1
        touched[key] = tick
        recency.insert(Touch(tick: tick, key: key))
        while rows.count > capacity, let oldest = recency.popMin() {
            guard touched[oldest.key] == oldest.tick else { continue }
            rows[oldest.key] = nil
            touched[oldest.key] = nil
            forgotten.append(oldest.key)
        }
        if recency.count > 2 * rows.count + 64 {
            recency = Heap(touched.map { Touch(tick: $0.value, key: $0.key) })
        }
        return status
    }
}
