import ErrorWatchWire
import Foundation

/// How an OTLP export is counted in its senders' rows, over either transport.
extension SenderRegistry {
    /// Counts what a request from `peer` (address and port; `host` alone) became, its answers named as `grpc` or
    /// HTTP says them; returns the rows of an accepted batch's groups, in order. Work is linear in the request's
    /// resources: each is found by key.
    @discardableResult
    func record(
        _ outcome: OTLPExchange.Outcome, grpc: Bool, peer: String, host: String, at date: Date
    ) -> [SenderStatus] {
        record(peer: peer) { request in
            func touch(
                _ key: String, _ identity: OTLPResourceIdentity?, _ body: (inout SenderStatus, Bool) -> Void
            ) -> SenderStatus {
                request.touch(key) { status, first in
                    if let identity {
                        status.serviceName = identity.serviceName ?? status.serviceName
                        status.instanceID = identity.instanceID ?? status.instanceID
                        status.hostName = identity.hostName ?? status.hostName
                        status.pid = identity.pid ?? status.pid
                    }
                    body(&status, first)
                }
            }
            switch outcome.result {
            case .accepted(let batch, _):
                return batch.groups.map { group in
                    touch(group.identity.key, group.identity) { status, first in
                        if first { status.requests += 1 }
                        status.records += UInt64(group.records)
                        status.events += UInt64(group.events.count)
                        status.rejected += UInt64(group.rejected + group.dropped)
                        status.lastEventAt = date
                        if group.dropped > 0 { status.lastProblem = batch.droppedMessage }
                        if group.rejected > 0 { status.lastProblem = batch.rejectionMessage }
                    }
                }
            case .refused(let refusal, let message, let resources):
                if refusal == .behind, !resources.isEmpty {
                    for identity in resources {
                        _ = touch(identity.key, identity) { status, first in
                            if first { status.refused += 1 }
                            status.lastProblem = message
                        }
                    }
                } else {
                    _ = touch("client " + host, nil) { status, _ in
                        status.badRequests += 1
                        status.lastProblem = "\(refusal.answerName(grpc: grpc)): \(message)"
                    }
                }
                return []
            }
        }
    }
}
