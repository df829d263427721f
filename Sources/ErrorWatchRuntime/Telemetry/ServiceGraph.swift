import ErrorWatchUI
import Foundation
import Synchronization

/// One call from a service to another, found by the trace store when a span and its parent of another service
/// are both held: the caller's and callee's services, whether it failed, and the callee's span duration.
struct ServiceCall: Sendable, Hashable {
    var caller: String
    var callee: String
    var failed: Bool
    /// The callee's span duration in µs, when it had both times.
    var micros: UInt64?
}

/// The service map: per pair of services, the calls ``TraceStore`` found between them, with their rate and error
/// share over the last minute and the callee's durations (the Collector's servicegraph connector computes the same
/// from spans). Listed in the Services view (`v` after Traces), sent with each metrics sample.
///
/// Bounded: at most ``maximumEdges`` pairs (calls between later new pairs are not counted, and their number is
/// kept in ``uncounted``), one histogram and 60 one-second buckets each.
final class ServiceGraph: Sendable {
    /// Pairs of services kept at most.
    static let maximumEdges = 256

    private struct Key: Hashable {
        var caller: String
        var callee: String
    }

    private struct State {
        var edges: [Key: RequestTally] = [:]
        var uncounted = 0
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Calls between new pairs of services not counted, the map being full.
    var uncounted: Int { state.withLock { $0.uncounted } }

    /// Counts `calls`, as of now.
    func record(_ calls: [ServiceCall]) {
        guard !calls.isEmpty else { return }
        let at = now()
        let second = Int64(at.timeIntervalSince1970.rounded(.down))
        state.withLock { state in
            for call in calls {
                let key = Key(caller: call.caller, callee: call.callee)
                if state.edges[key] == nil {
                    guard state.edges.count < Self.maximumEdges else {
                        state.uncounted += 1
                        continue
                    }
                    state.edges[key] = RequestTally(firstSecond: second, updatedAt: at)
                }
                state.edges[key]!.count(second: second, failed: call.failed, at: at, micros: call.micros)
            }
        }
    }

    /// Every edge, by caller then callee.
    func edges() -> [ServiceEdge] {
        let second = Int64(now().timeIntervalSince1970.rounded(.down))
        let edges = state.withLock { state in
            state.edges.map { key, tally in
                let summary = tally.summary(at: second)
                return ServiceEdge(
                    caller: key.caller, callee: key.callee, calls: tally.total, failed: tally.failed,
                    ratePerSecond: summary.rate, errorRatio: summary.errorRatio, p50: summary.p50, p95: summary.p95,
                    p99: summary.p99, updatedAt: tally.updatedAt)
            }
        }
        return edges.sorted { ($0.caller, $0.callee) < ($1.caller, $1.callee) }
    }
}
