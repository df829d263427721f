import CoreMetrics
import ErrorWatchUI
import Foundation
import Histogram
import Synchronization

/// A swift-metrics backend that keeps every counter, recorder and timer in memory for the `Metrics` pane.
///
/// Pass it as the `factory:` of `Counter`, `Timer` and friends (or bootstrap `MetricsSystem` with it).
/// Counters are exact (atomics); timers and aggregating recorders keep an HdrHistogram, so percentiles cost the
/// same however many samples arrive. Every metric remembers when it was last updated, so the pane can list the
/// most recently updated first.
///
/// ```swift
/// let metrics = DashboardMetrics()
/// Counter(label: "login.success", factory: metrics).increment()
/// metrics.counterValue("login.success")   // 1
/// ```
public final class DashboardMetrics: MetricsFactory, Sendable {
    /// A metric's identity: its label and its dimensions, sorted.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// The metric's label.
        public let label: String
        /// Its dimensions; later duplicates win.
        public let dimensions: [String: String]
        /// The key for a label and its dimensions.
        public init(label: String, dimensions: [(String, String)]) {
            self.label = label
            self.dimensions = Dictionary(dimensions, uniquingKeysWith: { _, last in last })
        }
        public var description: String {
            dimensions.isEmpty
                ? label
                : label + "{"
                    + dimensions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
        }
    }

    private struct Registry {
        var counters: [Key: CounterBox] = [:]
        var recorders: [Key: RecorderBox] = [:]
        var histograms: [Key: ValueHistogramBox] = [:]
        var timers: [Key: TimerBox] = [:]
        var units: [String: String] = [:]
    }

    private let registry = Mutex(Registry())
    private let now: @Sendable () -> Date
    /// Request metrics computed from received spans, listed among the series.
    let requests: RequestMetrics
    /// Calls between services found in received spans, for the Services view.
    let services: ServiceGraph

    /// An empty registry; `now` stamps updates (the runtime's clock, so headless runs are reproducible).
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        requests = RequestMetrics(now: now)
        services = ServiceGraph(now: now)
    }

    // MARK: MetricsFactory

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        // The dashboard's own per-error counter is bumped for every error of a flood and never listed as a
        // series: it keeps no update time.
        let stamped = !Self.unlisted.contains(label)
        return handler(Key(label: label, dimensions: dimensions), in: \.counters) {
            CounterBox(now: stamped ? now : nil)
        }
    }

    /// Labels of the dashboard's own metrics, counted but not listed as series (no update time is kept).
    public static let unlisted: Set<String> = ["errors"]

    /// A gauge, or with `aggregate` a histogram of the recorded values (3 decimals kept, negatives as 0).
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let key = Key(label: label, dimensions: dimensions)
        if aggregate { return handler(key, in: \.histograms) { ValueHistogramBox(now: now) } }
        return handler(key, in: \.recorders) { RecorderBox(now: now) }
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(Key(label: label, dimensions: dimensions), in: \.timers) { TimerBox(now: now) }
    }

    /// Says which unit the values of metrics named `label` (of `service`, when given) are in (`ms`, `By`…), for
    /// display. Two services may send the same name in different units.
    public func setUnit(_ unit: String?, for label: String, service: String? = nil) {
        registry.withLock { $0.units[label + "\u{1F}" + (service ?? "")] = unit }
    }

    /// The handler registered under `key`, created on first use: one handler per label and dimensions, as
    /// swift-metrics expects from a factory.
    private func handler<Box: Sendable>(
        _ key: Key, in table: WritableKeyPath<Registry, [Key: Box]>, make: () -> Box
    ) -> Box {
        registry.withLock { registry in
            if let existing = registry[keyPath: table][key] { return existing }
            let box = make()
            registry[keyPath: table][key] = box
            return box
        }
    }

    public func destroyCounter(_ handler: any CounterHandler) {}
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    public func destroyTimer(_ handler: any TimerHandler) {}

    // MARK: Reading

    /// Every counter with its current value.
    public func counters() -> [Key: Int64] {
        let boxes = registry.withLock { $0.counters }
        return boxes.mapValues { $0.value }
    }

    /// The sum of every counter with this label, over all dimensions.
    public func counterValue(_ label: String) -> Int64 {
        counters().reduce(0) { $1.key.label == label ? $0 + $1.value : $0 }
    }

    /// The sum of counters with this label whose dimension `dimension` has each value.
    public func counterValues(_ label: String, by dimension: String) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for (key, value) in counters() where key.label == label {
            result[key.dimensions[dimension] ?? "", default: 0] += value
        }
        return result
    }

    /// The last value recorded under `label` (summed over dimensions), if any.
    public func gaugeValue(_ label: String) -> Double? {
        let boxes = registry.withLock { $0.recorders.filter { $0.key.label == label }.map(\.value) }
        let values = boxes.compactMap { $0.last }
        return values.isEmpty ? nil : values.reduce(0, +)
    }

    /// The last value recorded under exactly `label` with no dimensions, if any.
    public func gaugeValue(exactly label: String) -> Double? {
        let key = Key(label: label, dimensions: [])
        return registry.withLock { $0.recorders[key] }?.last
    }

    /// How many distinct recorders exist (remote producers can create them, so the ingest caps it).
    public var recorderCount: Int { registry.withLock { $0.recorders.count } }

    /// How many distinct metrics of any kind exist.
    public var metricCount: Int {
        registry.withLock { $0.counters.count + $0.recorders.count + $0.histograms.count + $0.timers.count }
    }

    /// Whether a metric of any kind exists under `key`.
    public func contains(_ key: Key) -> Bool {
        registry.withLock {
            $0.counters[key] != nil || $0.recorders[key] != nil || $0.histograms[key] != nil || $0.timers[key] != nil
        }
    }

    /// Every metric whose label passes `include`, as the `Metrics` pane shows it: timers and aggregating recorders
    /// with count and percentiles, gauges with their last value, counters with their total (the rate is the
    /// caller's: it needs samples over time). Labels starting with `remote.` lose the prefix, and a `service`
    /// dimension becomes the series' service; the other dimensions are folded into the name as `{k=v}`.
    public func series(where include: (String) -> Bool) -> [MetricSeries] {
        let registry = self.registry.withLock { $0 }
        var result: [MetricSeries] = []
        func describe(_ key: Key) -> (name: String, service: String?, unit: String?) {
            Self.describe(key, units: registry.units)
        }
        for (key, box) in registry.counters where include(key.label) {
            guard let updated = box.updatedAt else { continue }
            let (name, service, unit) = describe(key)
            result.append(
                MetricSeries(
                    name: name, service: service, kind: .counter, unit: unit, count: Int(clamping: box.updates),
                    value: Double(box.value), updatedAt: updated))
        }
        for (key, box) in registry.recorders where include(key.label) {
            guard let updated = box.updatedAt, let last = box.last else { continue }
            let (name, service, unit) = describe(key)
            result.append(
                MetricSeries(
                    name: name, service: service, kind: .gauge, unit: unit, count: Int(clamping: box.updates),
                    value: last, updatedAt: updated))
        }
        // Histograms and timers alike, with count, last value and percentiles; a timer's unit is nanoseconds.
        func summarised(_ key: Key, updatedAt: Date?, unit fixedUnit: String?, _ summary: () -> HistogramSummary) {
            guard let updatedAt, include(key.label) else { return }
            let (name, service, unit) = describe(key)
            let summary = summary()
            result.append(
                MetricSeries(
                    name: name, service: service, kind: .histogram, unit: fixedUnit ?? unit, count: summary.count,
                    value: summary.last, p50: summary.p50, p95: summary.p95, p99: summary.p99, updatedAt: updatedAt))
        }
        for (key, box) in registry.histograms { summarised(key, updatedAt: box.updatedAt, unit: nil, box.summary) }
        for (key, box) in registry.timers { summarised(key, updatedAt: box.updatedAt, unit: "ns", box.summary) }
        if include("requests") { result += requests.series() }
        return result.sorted { ($0.updatedAt, $1.name, $1.service ?? "") > ($1.updatedAt, $0.name, $0.service ?? "") }
    }

    /// A series' name (the label without `remote.`, the dimensions other than `service` folded in as `{k=v}`), its
    /// service and its unit.
    private static func describe(_ key: Key, units: [String: String]) -> (name: String, service: String?, unit: String?)
    {
        var dimensions = key.dimensions
        let service = dimensions.removeValue(forKey: "service")
        var name = key.label.hasPrefix("remote.") ? String(key.label.dropFirst(7)) : key.label
        if !dimensions.isEmpty {
            name +=
                "{" + dimensions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
        }
        return (name, service, units[key.label + "\u{1F}" + (service ?? "")] ?? units[key.label + "\u{1F}"])
    }

    /// The observations each histogram and timer received since the last call, by ``MetricSeries/id`` (a timer's in
    /// nanoseconds), and those of the request series: what the charts' percentiles are computed from. Only the
    /// sampler calls it; each call starts the next stretch.
    func takeObservations() -> [String: ObservationSample] {
        let registry = self.registry.withLock { $0 }
        var taken: [String: ObservationSample] = [:]
        func keep(_ key: Key, _ sample: ObservationSample) {
            guard !sample.isEmpty else { return }
            let (name, service, _) = Self.describe(key, units: registry.units)
            taken[MetricSeries.id(name: name, service: service)] = sample
        }
        for (key, box) in registry.histograms { keep(key, box.takeRecent()) }
        for (key, box) in registry.timers { keep(key, box.takeRecent()) }
        taken.merge(requests.takeObservations()) { _, requests in requests }
        return taken
    }

    /// A percentile (0–100) of the durations recorded by timers with this label, over all dimensions.
    public func timerPercentile(_ label: String, _ percentile: Double) -> Duration? {
        let boxes = registry.withLock { $0.timers.filter { $0.key.label == label }.map(\.value) }
        var merged = Histogram<UInt64>(
            highestTrackableValue: TimerBox.highestNanoseconds, numberOfSignificantValueDigits: .three)
        for box in boxes { box.merge(into: &merged) }
        guard merged.totalCount > 0 else { return nil }
        return .nanoseconds(Int64(clamping: merged.valueAtPercentile(percentile)))
    }
}

/// When a box was last updated, as nanoseconds since 1970 in an atomic (0: never).
private final class UpdateStamp: Sendable {
    let now: @Sendable () -> Date
    private let nanoseconds = Atomic<Int64>(0)
    private let count = Atomic<Int64>(0)

    init(now: @escaping @Sendable () -> Date) { self.now = now }

    func touch() {
        let nanos = now().timeIntervalSince1970 * 1e9
        nanoseconds.store(nanos.isFinite ? Int64(max(1, min(9e18, nanos))) : 1, ordering: .relaxed)
        count.wrappingAdd(1, ordering: .relaxed)
    }

    var date: Date? {
        let value = nanoseconds.load(ordering: .relaxed)
        return value == 0 ? nil : Date(timeIntervalSince1970: Double(value) / 1e9)
    }

    var updates: Int64 { count.load(ordering: .relaxed) }
}

private final class CounterBox: CounterHandler, Sendable {
    private let count = Atomic<Int64>(0)
    private let stamp: UpdateStamp?
    /// `now` stamps updates; `nil` keeps no update time (the counter is not listed as a series).
    init(now: (@Sendable () -> Date)?) { stamp = now.map(UpdateStamp.init) }
    func increment(by amount: Int64) {
        count.wrappingAdd(amount, ordering: .relaxed)
        stamp?.touch()
    }
    func reset() { count.store(0, ordering: .relaxed) }
    var value: Int64 { count.load(ordering: .relaxed) }
    var updatedAt: Date? { stamp?.date }
    var updates: Int64 { stamp?.updates ?? 0 }
}

private final class RecorderBox: RecorderHandler, Sendable {
    private let latest = Mutex<Double?>(nil)
    private let stamp: UpdateStamp
    init(now: @escaping @Sendable () -> Date) { stamp = UpdateStamp(now: now) }
    func record(_ value: Int64) { record(Double(value)) }
    func record(_ value: Double) {
        latest.withLock { $0 = value }
        stamp.touch()
    }
    var last: Double? { latest.withLock { $0 } }
    var updatedAt: Date? { stamp.date }
    var updates: Int64 { stamp.updates }
}

/// Count, last value and percentiles of a histogram, in the recorded unit.
struct HistogramSummary {
    var count: Int
    var last: Double
    var p50: Double?
    var p95: Double?
    var p99: Double?

    /// The summary of `histogram`, whose values are the recorded ones times `scale`.
    init(_ histogram: Histogram<UInt64>, last: Double, scale: Double = 1) {
        self.count = Int(clamping: histogram.totalCount)
        self.last = last
        guard histogram.totalCount > 0 else { return }
        p50 = Double(histogram.valueAtPercentile(50)) / scale
        p95 = Double(histogram.valueAtPercentile(95)) / scale
        p99 = Double(histogram.valueAtPercentile(99)) / scale
    }
}

/// An aggregating recorder: values kept in an HdrHistogram as thousandths (3 decimals), 0 to a trillion.
private final class ValueHistogramBox: RecorderHandler, Sendable {
    static let scale = 1000.0
    static let highest: UInt64 = 1_000_000_000_000_000
    private struct State {
        var histogram = Histogram<UInt64>(
            highestTrackableValue: ValueHistogramBox.highest, numberOfSignificantValueDigits: .three)
        var last = 0.0
        /// Values since the sampler last took them, for charts.
        var recent = ObservationSample()
    }
    private let state = Mutex(State())
    private let stamp: UpdateStamp
    init(now: @escaping @Sendable () -> Date) { stamp = UpdateStamp(now: now) }

    func record(_ value: Int64) { record(Double(value)) }
    func record(_ value: Double) {
        guard value.isFinite else { return }
        let scaled = UInt64(min(Double(Self.highest), max(0, (value * Self.scale).rounded())))
        state.withLock {
            _ = $0.histogram.record(scaled)
            $0.last = value
            $0.recent.add(value)
        }
        stamp.touch()
    }

    var updatedAt: Date? { stamp.date }

    func summary() -> HistogramSummary {
        state.withLock { HistogramSummary($0.histogram, last: $0.last, scale: Self.scale) }
    }

    /// The values recorded since the last call.
    func takeRecent() -> ObservationSample {
        state.withLock { state in
            defer { state.recent = ObservationSample() }
            return state.recent
        }
    }
}

private final class TimerBox: TimerHandler, Sendable {
    /// One hour: longer samples are clamped.
    static let highestNanoseconds: UInt64 = 3_600_000_000_000
    private struct State {
        var histogram = Histogram<UInt64>(
            highestTrackableValue: TimerBox.highestNanoseconds, numberOfSignificantValueDigits: .three)
        var last: UInt64 = 0
        /// Durations (ns) since the sampler last took them, for charts.
        var recent = ObservationSample()
    }
    private let state = Mutex(State())
    private let stamp: UpdateStamp
    init(now: @escaping @Sendable () -> Date) { stamp = UpdateStamp(now: now) }

    func recordNanoseconds(_ duration: Int64) {
        let value = min(UInt64(clamping: max(1, duration)), Self.highestNanoseconds)
        state.withLock {
            _ = $0.histogram.record(value)
            $0.last = value
            $0.recent.add(Double(value))
        }
        stamp.touch()
    }

    /// The durations recorded since the last call, in nanoseconds.
    func takeRecent() -> ObservationSample {
        state.withLock { state in
            defer { state.recent = ObservationSample() }
            return state.recent
        }
    }

    var updatedAt: Date? { stamp.date }

    func merge(into target: inout Histogram<UInt64>) {
        let copy = state.withLock { $0.histogram }
        target.add(copy)
    }

    func summary() -> HistogramSummary {
        state.withLock { HistogramSummary($0.histogram, last: Double($0.last)) }
    }
}
