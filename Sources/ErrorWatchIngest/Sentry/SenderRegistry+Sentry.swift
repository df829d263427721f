import Foundation

/// How a Sentry request is counted in its clients' rows.
extension SenderRegistry {
    /// Counts what a request from `peer` (address and port; `host` alone) became; returns the rows of its groups,
    /// in order.
    @discardableResult
    func record(_ outcome: SentryExchange.Outcome, peer: String, host: String, at date: Date) -> [SenderStatus] {
        record(peer: peer) { request in
            if !outcome.groups.isEmpty {
                return outcome.groups.map { group in
                    request.touch(group.key) { status, _ in
                        status.client = group.client
                        status.release = group.release
                        if outcome.rateLimited {
                            status.refused += 1
                            status.lastProblem = outcome.problem
                            return
                        }
                        status.requests += 1
                        status.events += UInt64(group.events.count)
                        status.attachments += UInt64(group.attachments)
                        status.rejected += UInt64(group.skipped)
                        status.lastEventAt = date
                        if group.skipped > 0, let problem = outcome.problem { status.lastProblem = problem }
                    }
                }
            }
            if outcome.response.status != .ok {
                let key = outcome.client.map { "\($0) (no release)" } ?? "client " + host
                return [
                    request.touch(key) { status, _ in
                        status.client = outcome.client
                        // A 429 before the body (too many wrong keys) is a refusal the SDK waits out, not a bad request.
                        if outcome.response.status == .tooManyRequests {
                            status.refused += 1
                        } else {
                            status.badRequests += 1
                        }
                        status.lastProblem = "\(outcome.response.status.code): \(outcome.problem ?? "")"
                    }
                ]
            }
            return []
        }
    }
}
