import Foundation
import Synchronization

/// The receiver's table of SDK clients (a ``RecentSourceTable`` under a lock); `onStatus` runs after unlocking, once
/// per request with the rows it changed. At most ``maximumSources`` are kept: the least recently heard give way.
final class SentrySourceRegistry: Sendable {
    static let maximumSources = 1_024

    private let table: Mutex<RecentSourceTable<SentrySourceStatus>>
    private let onStatus: @Sendable (_ changed: [SentrySourceStatus], _ forgotten: [String]) -> Void

    init(
        capacity: Int = SentrySourceRegistry.maximumSources,
        onStatus: @escaping @Sendable (_ changed: [SentrySourceStatus], _ forgotten: [String]) -> Void
    ) {
        table = Mutex(RecentSourceTable(capacity: capacity))
        self.onStatus = onStatus
    }

    /// Every client, by key.
    var snapshot: [SentrySourceStatus] { table.withLock { Array($0.rows.values) }.sorted { $0.key < $1.key } }

    /// Counts what a request from `peer` (address and port; `host` alone) became; returns the rows of its groups,
    /// in order.
    @discardableResult
    func record(_ outcome: SentryExchange.Outcome, peer: String, host: String, at date: Date) -> [SentrySourceStatus] {
        var forgotten: [String] = []
        var rows: [SentrySourceStatus] = []
        let changed: [SentrySourceStatus] = table.withLock { table in
            if !outcome.groups.isEmpty {
                for group in outcome.groups {
                    rows.append(
                        table.touch(group.key, peer: peer, forgetting: &forgotten) { status in
                            status.client = group.client
                            status.release = group.release
                            if outcome.rateLimited {
                                status.rateLimited += 1
                                status.lastProblem = outcome.problem
                                return
                            }
                            status.envelopes += 1
                            status.events += UInt64(group.events.count)
                            status.attachments += UInt64(group.attachments)
                            status.skippedItems += UInt64(group.skipped)
                            status.lastEventAt = date
                            if group.skipped > 0, let problem = outcome.problem { status.lastProblem = problem }
                        })
                }
            } else if outcome.response.status != .ok {
                let key = outcome.client.map { "\($0) (no release)" } ?? "client " + host
                rows.append(
                    table.touch(key, peer: peer, forgetting: &forgotten) { status in
                        status.client = outcome.client
                        status.badRequests += 1
                        status.lastProblem = "\(outcome.response.status.code): \(outcome.problem ?? "")"
                    })
            }
            forgotten = forgotten.filter { table.rows[$0] == nil }
            return rows
        }
        if !changed.isEmpty || !forgotten.isEmpty { onStatus(changed, forgotten) }
        return rows
    }
}
