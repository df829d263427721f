import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import Foundation
import Synchronization

/// Request metrics computed from spans, as the OpenTelemetry Collector's spanmetrics connector does: for each
/// service and name of a server or consumer span, requests per second and the share that failed over the last
/// minute, and the duration's p50, p95 and p99 over every span received. Shown in the `Metrics` pane beside the
/// producers' own metrics, as series of kind ``MetricSeries/Kind/requests``.
///
/// Bounded: at most ``maximumSeries`` services and names (spans of later new ones are not counted, and the
/// number is kept in ``uncounted``), one histogram and 60 one-second buckets each.
final class RequestMetrics: Sendable {
    /// Series kept at most.
    static let maximumSeries = 256
    /// The window of the rate and the error share, in seconds.
    static let window = RequestTally.window

    private struct Key: Hashable {
        var service: String
        var name: String
    }

    private struct State {
        var entries: [Key: RequestTally] = [:]
        var uncounted = 0
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Spans of new services and names not counted, the series being full.
    var uncounted: Int { state.withLock { $0.uncounted } }

    /// Counts the server and consumer spans of `spans` (others are not requests).
    func record(_ spans: [TraceSpan]) {
        let at = now()
        let second = Int64(at.timeIntervalSince1970.rounded(.down))
        state.withLock { state in
            for span in spans where span.kind == .server || span.kind == .consumer {
                let key = Key(service: span.service ?? "unknown_service", name: span.name)
                if state.entries[key] == nil {
                    guard state.entries.count < Self.maximumSeries else {
                        state.uncounted += 1
                        continue
                    }
                    state.entries[key] = RequestTally(firstSecond: second, updatedAt: at)
                }
                let failed = span.status == .error || span.errors > 0
                state.entries[key]!.count(
                    second: second, failed: failed, at: at,
                    micros: span.endUnixNano >= span.startUnixNano && span.startUnixNano != 0
                        ? (span.endUnixNano - span.startUnixNano) / 1_000 : nil)
            }
        }
    }

    /// The durations (ms) of each series' requests since the last call, by ``MetricSeries/id``.
    func takeObservations() -> [String: ObservationSample] {
        state.withLock { state in
            var taken: [String: ObservationSample] = [:]
            for (key, entry) in state.entries where !entry.recent.isEmpty {
                taken[MetricSeries.id(name: key.name, service: key.service)] = entry.recent
                state.entries[key]?.recent = ObservationSample()
            }
            return taken
        }
    }

    /// One series per service and name, as the pane shows them: `requests` with the rate over the last minute (or
    /// since the first request, when sooner), the error share over the same window, and the percentiles in ms.
    func series() -> [MetricSeries] {
        let at = now()
        let second = Int64(at.timeIntervalSince1970.rounded(.down))
        return state.withLock { state in
            state.entries.map { key, entry in
                let summary = entry.summary(at: second)
                return MetricSeries(
                    name: key.name, service: key.service, kind: .requests, unit: "ms", count: entry.total,
                    value: Double(entry.failed), ratePerSecond: summary.rate, p50: summary.p50, p95: summary.p95,
                    p99: summary.p99, updatedAt: entry.updatedAt, errorRatio: summary.errorRatio)
            }
        }
    }
}
