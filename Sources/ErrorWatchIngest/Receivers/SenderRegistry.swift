import Foundation
import HeapModule
import Synchronization

/// A receiver's table of senders, the one registry of every protocol that receives requests (OTLP over HTTP and
/// gRPC, Sentry): rows by key, the least recently heard forgotten past ``capacity`` in amortised O(log n), and one
/// `onStatus` call per request with the rows it changed (each once) and the senders forgotten to make room, made
/// after the lock is released. A 35,000-resource request is one call, not 35,000.
///
/// A protocol counts a request through ``record(peer:body:)``: `body` touches the rows the request concerns.
final class SenderRegistry: Sendable {
    /// Senders kept by default.
    static let defaultCapacity = 1_024

    private let table: Mutex<RecentSourceTable>
    private let onStatus: @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void

    init(
        capacity: Int = SenderRegistry.defaultCapacity,
        onStatus: @escaping @Sendable (_ changed: [SenderStatus], _ forgotten: [String]) -> Void
    ) {
        table = Mutex(RecentSourceTable(capacity: capacity))
        self.onStatus = onStatus
    }

    /// Every sender, by key.
    var snapshot: [SenderStatus] { table.withLock { Array($0.rows.values) }.sorted { $0.key < $1.key } }

    /// The rows one request touches, through ``touch(_:_:)``; kept in the order first touched.
    struct Request {
        fileprivate var table: RecentSourceTable
        fileprivate let peer: String
        fileprivate var order: [String] = []
        fileprivate var seen: Set<String> = []
        fileprivate var new: Set<String> = []
        fileprivate var forgotten: [String] = []

        /// Changes the row of `key` (made when unknown); `body` is told whether this request touched it before.
        /// Returns the row as it is now.
        @discardableResult
        mutating func touch(_ key: String, _ body: (inout SenderStatus, _ first: Bool) -> Void) -> SenderStatus {
            let first = seen.insert(key).inserted
            if first {
                order.append(key)
                if table.rows[key] == nil { new.insert(key) }
            }
            return table.touch(key, peer: peer, forgetting: &forgotten) { body(&$0, first) }
        }
    }

    /// Counts a request from `peer` (address and port): `body` touches its rows. `onStatus` then hears, once, of
    /// every row it changed and of the senders forgotten to make room (only those listed before the request: one
    /// made and forgotten within it is no news).
    func record<Result>(peer: String, _ body: (inout Request) -> Result) -> Result {
        let (result, changed, forgotten) = table.withLock { table in
            var request = Request(table: table, peer: peer)
            table = RecentSourceTable(capacity: 1)  // the request holds the table meanwhile, uniquely
            let result = body(&request)
            table = request.table
            var gone = Set<String>()
            let forgotten = request.forgotten.filter {
                table.rows[$0] == nil && !request.new.contains($0) && gone.insert($0).inserted
            }
            return (result, request.order.compactMap { table.rows[$0] }, forgotten)
        }
        if !changed.isEmpty || !forgotten.isEmpty { onStatus(changed, forgotten) }
        return result
    }
}
