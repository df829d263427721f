import ErrorWatchWire
import Foundation
import Synchronization

/// The receiver's table of senders; callbacks run after unlocking. At most ``maximumSources`` are kept: the one
/// heard from least recently gives way.
final class OTLPSourceRegistry: Sendable {
    static let maximumSources = 1_024

    private let sources = Mutex<[String: OTLPSourceStatus]>([:])
    private let onStatus: @Sendable (OTLPSourceStatus) -> Void

    init(onStatus: @escaping @Sendable (OTLPSourceStatus) -> Void) { self.onStatus = onStatus }

    /// Every sender, by key.
    var snapshot: [OTLPSourceStatus] { sources.withLock { Array($0.values) }.sorted { $0.key < $1.key } }

    /// Counts what a request from `peer` (address and port; `host` alone) became; returns the rows of an accepted
    /// batch's groups, in order.
    @discardableResult
    func record(_ outcome: OTLPExchange.Outcome, peer: String, host: String, at date: Date) -> [OTLPSourceStatus] {
        var changed: [OTLPSourceStatus] = []
        sources.withLock { sources in
            func update(_ key: String, _ identity: OTLPResourceIdentity?, _ body: (inout OTLPSourceStatus) -> Void) {
                var status = sources[key] ?? OTLPSourceStatus(key: key, peer: peer)
                status.peer = peer
                if let identity {
                    status.serviceName = identity.serviceName ?? status.serviceName
                    status.instanceID = identity.instanceID ?? status.instanceID
                    status.hostName = identity.hostName ?? status.hostName
                    status.pid = identity.pid ?? status.pid
                }
                body(&status)
                if sources[key] == nil, sources.count >= Self.maximumSources,
                    let oldest = sources.values.min(by: {
                        ($0.lastEventAt ?? .distantPast) < ($1.lastEventAt ?? .distantPast)
                    })
                {
                    sources[oldest.key] = nil
                }
                sources[key] = status
                changed.append(status)
            }
            if let batch = outcome.batch {
                for group in batch.groups {
                    update(group.identity.key, group.identity) { status in
                        status.requests += 1
                        status.records += UInt64(group.records)
                        status.events += UInt64(group.events.count)
                        status.rejected += UInt64(group.rejected)
                        status.lastEventAt = date
                        if group.rejected > 0 { status.lastProblem = batch.rejectionMessage }
                    }
                }
            } else if !outcome.refused.isEmpty {
                for identity in outcome.refused {
                    update(identity.key, identity) { status in
                        status.refused += 1
                        status.lastProblem = outcome.problem
                    }
                }
            } else if outcome.response.status != .ok {
                update("client " + host, nil) { status in
                    status.badRequests += 1
                    status.lastProblem = "\(outcome.response.status.code): \(outcome.problem ?? "")"
                }
            }
        }
        for status in changed { onStatus(status) }
        return outcome.batch == nil ? [] : changed
    }
}
