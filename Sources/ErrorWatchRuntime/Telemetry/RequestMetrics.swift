import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import Foundation
import Histogram
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
    static let window = 60

    private struct Key: Hashable {
        var service: String
        var name: String
    }

    private struct Entry {
        /// Durations in microseconds, up to an hour.
        var durations = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .two)
        var total = 0
        var failed = 0
        /// Requests and failures per second, by the second they were received in (ring of `window` slots).
        var seconds = [Int64](repeating: -1, count: RequestMetrics.window)
        var requests = [Int](repeating: 0, count: RequestMetrics.window)
        var errors = [Int](repeating: 0, count: RequestMetrics.window)
        var firstSecond: Int64
        var updatedAt: Date
        /// Durations (ms) since the sampler last took them, for charts.
        var recent = ObservationSample()

        /// One request received in `second`; its duration in µs when known.
        mutating func count(second: Int64, failed: Bool, at: Date, micros: UInt64?) {
            let window = Int64(RequestMetrics.window)
            let slot = Int(((second % window) + window) % window)
            if seconds[slot] != second {
                seconds[slot] = second
                requests[slot] = 0
                errors[slot] = 0
            }
            requests[slot] += 1
            total += 1
            if failed {
                errors[slot] += 1
                self.failed += 1
            }
            if let micros {
                durations.record(min(micros, 3_600_000_000))
                recent.add(Double(min(micros, 3_600_000_000)) / 1_000)
            }
            updatedAt = at
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
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
                    state.entries[key] = Entry(firstSecond: second, updatedAt: at)
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
                var requests = 0
                var errors = 0
                for slot in 0..<Self.window where entry.seconds[slot] > second - Int64(Self.window) {
                    requests += entry.requests[slot]
                    errors += entry.errors[slot]
                }
                let span = max(1, min(Int64(Self.window), second - entry.firstSecond + 1))
                let hasDurations = entry.durations.totalCount > 0
                func percentile(_ p: Double) -> Double? {
                    hasDurations ? Double(entry.durations.valueAtPercentile(p)) / 1_000 : nil
                }
                return MetricSeries(
                    name: key.name, service: key.service, kind: .requests, unit: "ms", count: entry.total,
                    value: Double(entry.failed), ratePerSecond: Double(requests) / Double(span),
                    p50: percentile(50), p95: percentile(95), p99: percentile(99), updatedAt: entry.updatedAt,
                    errorRatio: requests > 0 ? Double(errors) / Double(requests) : 0)
            }
        }
    }
}
