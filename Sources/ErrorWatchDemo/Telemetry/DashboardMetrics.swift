import CoreMetrics
import Histogram
import Synchronization

/// A swift-metrics backend that keeps every counter and timer in memory for the `Metrics` pane.
///
/// Pass it as the `factory:` of `Counter`, `Timer` and friends (or bootstrap `MetricsSystem` with it).
/// Counters are exact (atomics); timers keep an HdrHistogram, so percentiles cost the same however many
/// samples arrive.
///
/// ```swift
/// let metrics = DashboardMetrics()
/// Counter(label: "login.success", factory: metrics).increment()
/// metrics.counterValue("login.success")   // 1
/// ```
public final class DashboardMetrics: MetricsFactory, Sendable {
    /// A metric's identity: its label and its dimensions, sorted.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        public let label: String
        public let dimensions: [String: String]
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
        var timers: [Key: TimerBox] = [:]
    }

    private let registry = Mutex(Registry())

    public init() {}

    // MARK: MetricsFactory

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(Key(label: label, dimensions: dimensions), in: \.counters, make: CounterBox.init)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(Key(label: label, dimensions: dimensions), in: \.recorders, make: RecorderBox.init)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(Key(label: label, dimensions: dimensions), in: \.timers, make: TimerBox.init)
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

private final class CounterBox: CounterHandler, Sendable {
    private let count = Atomic<Int64>(0)
    func increment(by amount: Int64) { count.wrappingAdd(amount, ordering: .relaxed) }
    func reset() { count.store(0, ordering: .relaxed) }
    var value: Int64 { count.load(ordering: .relaxed) }
}

private final class RecorderBox: RecorderHandler, Sendable {
    private let latest = Mutex<Double?>(nil)
    func record(_ value: Int64) { latest.withLock { $0 = Double(value) } }
    func record(_ value: Double) { latest.withLock { $0 = value } }
    var last: Double? { latest.withLock { $0 } }
}

private final class TimerBox: TimerHandler, Sendable {
    /// One hour: longer samples are clamped.
    static let highestNanoseconds: UInt64 = 3_600_000_000_000
    private let histogram = Mutex(
        Histogram<UInt64>(highestTrackableValue: TimerBox.highestNanoseconds, numberOfSignificantValueDigits: .three))

    func recordNanoseconds(_ duration: Int64) {
        let value = UInt64(clamping: max(1, duration))
        histogram.withLock { _ = $0.record(min(value, Self.highestNanoseconds)) }
    }

    func merge(into target: inout Histogram<UInt64>) {
        let copy = histogram.withLock { $0 }
        target.add(copy)
    }
}
