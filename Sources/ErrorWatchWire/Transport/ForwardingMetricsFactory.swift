import CoreMetrics
import Foundation
import Synchronization

/// A swift-metrics backend that sends every update to an ``ErrorForwarder`` as a `metric` event.
///
/// Nothing is aggregated in the app: each update is one line, and its `metric.kind` tells the receiver how to
/// combine the series (see `docs/wire-format.md`).
///
/// | swift-metrics | `metric.kind` | `metric.value` |
/// | --- | --- | --- |
/// | `Counter`, `FloatingPointCounter` | `counter` | the increment |
/// | `Gauge`, `Recorder(aggregate: false)`, `Meter` | `gauge` | the new reading |
/// | `Recorder` (aggregating) | `histogram` | one observation |
/// | `Timer` | `histogram` | the duration in milliseconds, `metric.unit` `ms` |
///
/// The label is sent as `metric.name` and the dimensions as `attributes`. Like ``ForwardingLogHandler``, updating
/// a metric never blocks: the event is encoded on the calling thread and queued, or dropped and counted when the
/// queue is full (so is a value that is not finite, which JSON cannot carry).
///
/// ```swift
/// MetricsSystem.bootstrap(ForwardingMetricsFactory(forwarder: forwarder))
/// Counter(label: "orders.placed", dimensions: [("region", "eu")]).increment()
/// Gauge(label: "queue.depth").record(12)
/// ```
public final class ForwardingMetricsFactory: MetricsFactory, Sendable {
    private let forwarder: ErrorForwarder
    private let now: @Sendable () -> Date

    /// Creates a backend that forwards to `forwarder`.
    ///
    /// - Parameters:
    ///   - forwarder: where metric events go; its source names the producer.
    ///   - now: the time source for event times.
    public init(forwarder: ErrorForwarder, now: @escaping @Sendable () -> Date = { Date() }) {
        self.forwarder = forwarder
        self.now = now
    }

    /// A counter whose increments are sent as `counter` events.
    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        ForwardedCounter(series(label, dimensions, kind: .counter))
    }

    /// A floating-point counter whose increments are sent as `counter` events, fractions and all (swift-metrics'
    /// default would round them into an integer counter).
    public func makeFloatingPointCounter(
        label: String, dimensions: [(String, String)]
    ) -> any FloatingPointCounterHandler {
        ForwardedCounter(series(label, dimensions, kind: .counter))
    }

    /// A meter whose every new value is sent as a `gauge` event (swift-metrics' default would make it a
    /// histogram of its values).
    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        ForwardedMeter(series(label, dimensions, kind: .gauge))
    }

    /// A recorder whose values are sent as `histogram` events when it aggregates, else as `gauge` events.
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        ForwardedRecorder(series(label, dimensions, kind: aggregate ? .histogram : .gauge))
    }

    /// A timer whose durations are sent as `histogram` events in milliseconds.
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        ForwardedTimer(series(label, dimensions, kind: .histogram, unit: "ms"))
    }

    /// Nothing to release: a handler holds no resource but its own memory.
    public func destroyCounter(_ handler: any CounterHandler) {}

    /// Nothing to release: a handler holds no resource but its own memory.
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}

    /// Nothing to release: a handler holds no resource but its own memory.
    public func destroyMeter(_ handler: any MeterHandler) {}

    /// Nothing to release: a handler holds no resource but its own memory.
    public func destroyRecorder(_ handler: any RecorderHandler) {}

    /// Nothing to release: a handler holds no resource but its own memory.
    public func destroyTimer(_ handler: any TimerHandler) {}

    private func series(
        _ label: String, _ dimensions: [(String, String)], kind: WireMetricKind, unit: String? = nil
    ) -> Series {
        Series(
            forwarder: forwarder, now: now, name: label,
            dimensions: Dictionary(dimensions, uniquingKeysWith: { _, last in last }), kind: kind, unit: unit)
    }
}

/// One metric's fixed parts; ``send(_:)`` makes and queues an event for one value.
private struct Series: Sendable {
    let forwarder: ErrorForwarder
    let now: @Sendable () -> Date
    let name: String
    let dimensions: [String: String]
    let kind: WireMetricKind
    let unit: String?

    func send(_ value: Double) {
        let event = WireEncoder(source: forwarder.source).metricEvent(
            name: name, value: value, kind: kind, unit: unit, dimensions: dimensions, time: now())
        forwarder.send(event)
    }
}

/// Counters only go up: like swift-metrics' own accumulating counter, a negative, infinite or NaN increment is
/// ignored. A reset is not forwarded: a `counter` event carries an increment, and the receiver's total goes on.
private final class ForwardedCounter: CounterHandler, FloatingPointCounterHandler {
    let series: Series

    init(_ series: Series) {
        self.series = series
    }

    func increment(by amount: Int64) {
        guard amount >= 0 else { return }
        series.send(Double(amount))
    }

    func increment(by amount: Double) {
        guard amount.isFinite, amount >= 0 else { return }
        series.send(amount)
    }

    func reset() {}
}

private final class ForwardedRecorder: RecorderHandler {
    let series: Series

    init(_ series: Series) {
        self.series = series
    }

    func record(_ value: Int64) { series.send(Double(value)) }

    func record(_ value: Double) { series.send(value) }
}

private final class ForwardedTimer: TimerHandler {
    let series: Series

    init(_ series: Series) {
        self.series = series
    }

    func recordNanoseconds(_ duration: Int64) { series.send(Double(duration) / 1_000_000) }
}

/// A meter keeps its value here and sends each new value as a gauge reading. Like swift-metrics' own meter, a
/// negative, infinite or NaN increment or decrement is ignored.
private final class ForwardedMeter: MeterHandler {
    let series: Series
    private let value = Mutex<Double>(0)

    init(_ series: Series) {
        self.series = series
    }

    func set(_ value: Int64) { update { $0 = Double(value) } }

    func set(_ value: Double) { update { $0 = value } }

    func increment(by amount: Double) {
        guard amount.isFinite, amount >= 0 else { return }
        update { $0 += amount }
    }

    func decrement(by amount: Double) {
        guard amount.isFinite, amount >= 0 else { return }
        update { $0 -= amount }
    }

    /// Sent under the lock so two racing updates reach the queue in the order they were made, and the receiver's
    /// latest reading is the meter's latest value; the forwarder's lock is a leaf, never held while taking this one.
    private func update(_ change: (inout Double) -> Void) {
        value.withLock { value in
            change(&value)
            series.send(value)
        }
    }
}
