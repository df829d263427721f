import Foundation
import Histogram

/// Requests counted as they arrive, for the Metrics pane and the Services view: totals, requests and failures per
/// second over the last ``window`` seconds (a ring of one-second slots), and a histogram of their durations. One per
/// request series (``RequestMetrics``) and per edge between two services (``ServiceGraph``).
struct RequestTally {
    /// The window of the rate and the error share, in seconds.
    static let window = 60

    /// Durations in microseconds, up to an hour.
    var durations = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .two)
    var total = 0
    var failed = 0
    /// Requests and failures per second, by the second they were received in (ring of `window` slots).
    var seconds = [Int64](repeating: -1, count: RequestTally.window)
    var requests = [Int](repeating: 0, count: RequestTally.window)
    var errors = [Int](repeating: 0, count: RequestTally.window)
    var firstSecond: Int64
    var updatedAt: Date
    /// Durations (ms) since the sampler last took them, for charts.
    var recent = ObservationSample()

    init(firstSecond: Int64, updatedAt: Date) {
        self.firstSecond = firstSecond
        self.updatedAt = updatedAt
    }

    /// One request received in `second`; its duration in µs when known.
    mutating func count(second: Int64, failed: Bool, at: Date, micros: UInt64?) {
        let window = Int64(Self.window)
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
            let kept = min(micros, 3_600_000_000)
            durations.record(kept)
            recent.add(Double(kept) / 1_000)
        }
        updatedAt = at
    }

    /// The rate over the last ``window`` seconds before `second` (or since the first request, when sooner), the share
    /// of them that failed, and the durations' p50, p95 and p99 in ms over every request.
    func summary(at second: Int64) -> (rate: Double, errorRatio: Double, p50: Double?, p95: Double?, p99: Double?) {
        var requests = 0
        var errors = 0
        for slot in 0..<Self.window where seconds[slot] > second - Int64(Self.window) {
            requests += self.requests[slot]
            errors += self.errors[slot]
        }
        let span = max(1, min(Int64(Self.window), second - firstSecond + 1))
        let hasDurations = durations.totalCount > 0
        func percentile(_ p: Double) -> Double? {
            hasDurations ? Double(durations.valueAtPercentile(p)) / 1_000 : nil
        }
        return (
            Double(requests) / Double(span), requests > 0 ? Double(errors) / Double(requests) : 0, percentile(50),
            percentile(95), percentile(99)
        )
    }
}
