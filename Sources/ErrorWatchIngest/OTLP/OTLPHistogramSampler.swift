import ErrorWatchWire
import Foundation

/// Turns histogram bucket counts into representative observations for the Metrics pane, which computes count,
/// p50, p95 and p99 from observations (hdrhistogram).
///
/// An OTLP histogram sends counts per bucket, not the values. Each counted value becomes one observation at its
/// bucket's representative value: the middle of a bounded bucket (the geometric middle of an exponential one),
/// the point's `min` for the open lowest bucket and `max` for the open highest (else the finite bound). So the
/// pane's percentiles are exact to the bucket, and its count is exact up to ``maximumPerPoint`` observations per
/// point and export; above that the counts are scaled down to it in proportion (the percentiles keep their shape,
/// the count does not). docs/otlp.md says the same.
enum OTLPHistogramSampler {
    /// The most observations one data point turns into.
    static let maximumPerPoint = 1_000

    /// `(representative value, count)` for each explicit bucket with a positive count.
    static func explicitBuckets(
        counts: [UInt64], bounds: [Double], min: Double?, max: Double?
    ) -> [(value: Double, count: UInt64)] {
        var result: [(value: Double, count: UInt64)] = []
        for (index, count) in counts.enumerated() where count > 0 {
            let lower = index > 0 && index - 1 < bounds.count ? bounds[index - 1] : nil
            let upper = index < bounds.count ? bounds[index] : nil
            let value: Double
            switch (lower, upper) {
            case (let lower?, let upper?): value = (lower + upper) / 2
            case (nil, let upper?): value = min.map { Swift.min($0, upper) } ?? upper
            case (let lower?, nil): value = max.map { Swift.max($0, lower) } ?? lower
            case (nil, nil): value = min.flatMap { low in max.map { (low + $0) / 2 } } ?? 0
            }
            result.append((value, count))
        }
        // Bounds, min and max are the sender's doubles: a NaN or infinite one (or two huge bounds whose middle
        // overflows) makes no observation a writer could write (JSON has neither), as in exponential buckets.
        return result.filter { $0.value.isFinite }
    }

    /// `(representative value, count)` for an exponential histogram's buckets: index `i` covers
    /// `(base^i, base^(i+1)]` with `base = 2^(2^-scale)`, shown at `base^(i+0.5)`; negative buckets mirrored;
    /// the zero bucket at 0.
    static func exponentialBuckets(
        scale: Int32, zero: UInt64, positive: [Int: UInt64], negative: [Int: UInt64]
    ) -> [(value: Double, count: UInt64)] {
        let base = pow(2, pow(2, -Double(scale)))
        var result: [(value: Double, count: UInt64)] = []
        for (index, count) in negative.sorted(by: { $0.key > $1.key }) where count > 0 {
            result.append((-pow(base, Double(index) + 0.5), count))
        }
        if zero > 0 { result.append((0, zero)) }
        for (index, count) in positive.sorted(by: { $0.key < $1.key }) where count > 0 {
            result.append((pow(base, Double(index) + 0.5), count))
        }
        return result.filter { $0.value.isFinite }
    }

    /// The observations for `buckets`, at most ``maximumPerPoint`` (scaled in proportion above it).
    static func observations(_ buckets: [(value: Double, count: UInt64)]) -> [Double] {
        let total = buckets.reduce(0.0) { $0 + Double($1.count) }
        guard total > 0 else { return [] }
        let factor = total > Double(maximumPerPoint) ? Double(maximumPerPoint) / total : 1
        var result: [Double] = []
        result.reserveCapacity(Int(Swift.min(total, Double(maximumPerPoint))))
        for bucket in buckets {
            let count = factor == 1 ? Int(bucket.count) : Int((Double(bucket.count) * factor).rounded())
            result.append(contentsOf: repeatElement(bucket.value, count: count))
        }
        return result
    }
}
