/// Observations made over a stretch of time (since the sampler last took them, or within one chart bucket): every
/// one up to ``capacity``, an even sample of that many past it (reservoir sampling, with a fixed seed so that runs
/// are reproducible), and how many there were in all. A chart's percentiles per bucket are computed from it.
struct ObservationSample: Sendable, Hashable {
    /// The most values kept.
    static let capacity = 256

    /// The values kept, in no order.
    private(set) var values: [Double] = []
    /// Observations made, kept or not.
    private(set) var count = 0
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// No observations.
    init() {}

    var isEmpty: Bool { count == 0 }

    /// Counts `value`, keeping it when there is room, else in place of a kept one with the chance that keeps the
    /// sample even.
    mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        count += 1
        if values.count < Self.capacity {
            values.append(value)
            return
        }
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let slot = Int((seed >> 33) % UInt64(count))
        if slot < Self.capacity { values[slot] = value }
    }

    /// Adds another sample's values, and counts what it counted beyond them.
    mutating func merge(_ other: ObservationSample) {
        for value in other.values { add(value) }
        count += other.count - other.values.count
    }

    /// The `percentiles` (0–100) of the values kept, nearest rank; `nil` each when there are none.
    func percentiles(_ percentiles: [Double]) -> [Double?] {
        guard !values.isEmpty else { return percentiles.map { _ in nil } }
        let sorted = values.sorted()
        return percentiles.map { p in
            let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
            return sorted[min(sorted.count - 1, max(0, rank - 1))]
        }
    }
}
