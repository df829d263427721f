import ErrorWatchWire
import Foundation
import Synchronization

/// The receiver's table of senders (an ``OTLPSourceTable`` under a lock); callbacks run after unlocking. At most
/// ``maximumSources`` are kept: the one heard from least recently gives way.
///
/// A request costs work linear in its resources: each is found by key, and the rows it changed are reported once,
/// together, after the request (a 35,000-resource request is one `onStatus` call, not 35,000 of them).
final class OTLPSourceRegistry: Sendable {
    static let maximumSources = 1_024

    private let table: Mutex<OTLPSourceTable>
    private let onStatus: @Sendable (_ changed: [OTLPSourceStatus], _ forgotten: [String]) -> Void

    init(
        capacity: Int = OTLPSourceRegistry.maximumSources,
        onStatus: @escaping @Sendable (_ changed: [OTLPSourceStatus], _ forgotten: [String]) -> Void
    ) {
        table = Mutex(OTLPSourceTable(capacity: capacity))
        self.onStatus = onStatus
    }

    /// Every sender, by key.
    var snapshot: [OTLPSourceStatus] { table.withLock { Array($0.rows.values) }.sorted { $0.key < $1.key } }

    /// Counts what a request from `peer` (address and port; `host` alone) became, its answers named as `grpc` or HTTP
    /// says them; returns the rows of an accepted batch's groups, in order. `onStatus` hears once of every row the
    /// request changed, each once, and of the senders forgotten to make room.
    @discardableResult
    func record(
        _ outcome: OTLPExchange.Outcome, grpc: Bool, peer: String, host: String, at date: Date
    ) -> [OTLPSourceStatus] {
        var forgotten: [String] = []
        var order: [String] = []
        var seen = Set<String>()
        var new = Set<String>()
        var groupRows: [OTLPSourceStatus] = []
        let changed: [OTLPSourceStatus] = table.withLock { table in
            /// Updates one sender; `body` is told whether the request touched it already.
            func update(
                _ key: String, _ identity: OTLPResourceIdentity?, _ body: (inout OTLPSourceStatus, Bool) -> Void
            ) -> OTLPSourceStatus {
                let first = seen.insert(key).inserted
                if first {
                    order.append(key)
                    if table.rows[key] == nil { new.insert(key) }
                }
                return table.touch(key, peer: peer, forgetting: &forgotten) { status in
                    if let identity {
                        status.serviceName = identity.serviceName ?? status.serviceName
                        status.instanceID = identity.instanceID ?? status.instanceID
                        status.hostName = identity.hostName ?? status.hostName
                        status.pid = identity.pid ?? status.pid
                    }
                    body(&status, first)
                }
            }
            if let batch = outcome.batch {
                groupRows.reserveCapacity(batch.groups.count)
                for group in batch.groups {
                    let row = update(group.identity.key, group.identity) { status, first in
                        if first { status.requests += 1 }
                        status.records += UInt64(group.records)
                        status.events += UInt64(group.events.count)
                        status.rejected += UInt64(group.rejected + group.dropped)
                        status.lastEventAt = date
                        if group.dropped > 0 { status.lastProblem = batch.droppedMessage }
                        if group.rejected > 0 { status.lastProblem = batch.rejectionMessage }
                    }
                    groupRows.append(row)
                }
            } else if case .refused(let refusal, let message, let resources) = outcome.result {
                if refusal == .behind, !resources.isEmpty {
                    for identity in resources {
                        _ = update(identity.key, identity) { status, first in
                            if first { status.refused += 1 }
                            status.lastProblem = message
                        }
                    }
                } else {
                    _ = update("client " + host, nil) { status, _ in
                        status.badRequests += 1
                        status.lastProblem = "\(refusal.answerName(grpc: grpc)): \(message)"
                    }
                }
            }
            // Only senders listed before the request are news when forgotten; one heard from again is listed.
            var gone = Set<String>()
            forgotten = forgotten.filter { table.rows[$0] == nil && !new.contains($0) && gone.insert($0).inserted }
            return order.compactMap { table.rows[$0] }
        }
        if !changed.isEmpty || !forgotten.isEmpty { onStatus(changed, forgotten) }
        return groupRows
    }
}
