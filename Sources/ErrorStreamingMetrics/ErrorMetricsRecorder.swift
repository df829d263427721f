import CoreMetrics
import ErrorStreaming
import Synchronization

/// Records every error of an ``ErrorStream`` as a swift-metrics counter, and the stream's health as gauges, so any
/// swift-metrics backend (swift-prometheus, an OpenTelemetry exporter…) exports them.
///
/// Each error increments the counter `errors_total` with four dimensions taken from its ``Classification`` and
/// its event's context: `type` (the error's type name, `Shop.CheckoutError`), `code` (`P-402`), `category`
/// (`userActionable`) and `origin` (`user` or `background`). Two gauges follow the stream:
/// `error_stream_dropped` (deliveries dropped by listeners' bounded backlogs, ``ErrorStream/Statistics/dropped``)
/// and `error_stream_listeners` (listeners registered now, this recorder included).
///
/// ```swift
/// let registry = PrometheusCollectorRegistry()
/// let recorder = ErrorMetricsRecorder(stream: stream, factory: PrometheusMetricsFactory(registry: registry))
/// let recording = Task { await recorder.run() }   // until the stream finishes or the task is cancelled
/// …
/// recorder.refreshGauges()                         // before a scrape, so the gauges are current
/// let text = registry.emitToString()               // errors_total{type="…",code="P-402",…} 3
/// ```
///
/// The recorder subscribes when it is created, not when ``run()`` starts, so no error added in between is missed.
/// Its subscription is `.unbounded` by default: a counter must count every error, and the recorder's work per
/// error (one dictionary lookup and one increment) keeps its backlog short.
public final class ErrorMetricsRecorder: Sendable {
    /// The metric names the recorder writes.
    public struct Labels: Sendable, Hashable {
        /// The errors counter, `errors_total` by default.
        public var errors: String
        /// The gauge of the stream's dropped deliveries, `error_stream_dropped` by default.
        public var dropped: String
        /// The gauge of the stream's listeners, `error_stream_listeners` by default.
        public var listeners: String

        /// Creates a set of names; every one has the default described above.
        public init(
            errors: String = "errors_total", dropped: String = "error_stream_dropped",
            listeners: String = "error_stream_listeners"
        ) {
            self.errors = errors
            self.dropped = dropped
            self.listeners = listeners
        }
    }

    /// The dimensions of one `errors_total` series.
    struct SeriesKey: Hashable {
        let type: String
        let code: String
        let category: String
        let origin: String

        var dimensions: [(String, String)] {
            [("type", type), ("code", code), ("category", category), ("origin", origin)]
        }
    }

    /// The stream whose errors are counted.
    public let stream: ErrorStream
    /// The metric names in use.
    public let labels: Labels
    private let factory: any MetricsFactory
    private let events: ErrorStream.Events
    private let droppedGauge: Gauge
    private let listenersGauge: Gauge
    private let started = Atomic<Bool>(false)

    /// Creates a recorder and subscribes it to `stream` at once; nothing is counted until ``run()`` reads.
    ///
    /// - Parameters:
    ///   - stream: the stream whose errors are counted.
    ///   - factory: the metrics backend, passed explicitly (a `PrometheusMetricsFactory`, `TestMetrics`, or
    ///     `MetricsSystem.factory` for the bootstrapped one).
    ///   - labels: the metric names.
    ///   - bufferingPolicy: the recorder's backlog; `.unbounded` by default so every error is counted.
    public init(
        stream: ErrorStream, factory: any MetricsFactory, labels: Labels = Labels(),
        bufferingPolicy: ErrorStream.BufferingPolicy = .unbounded
    ) {
        self.stream = stream
        self.factory = factory
        self.labels = labels
        self.events = stream.events(bufferingPolicy: bufferingPolicy)
        self.droppedGauge = Gauge(label: labels.dropped, factory: factory)
        self.listenersGauge = Gauge(label: labels.listeners, factory: factory)
        refreshGauges()
    }

    /// Counts errors until the stream is finished and drained, or the calling task is cancelled; then updates the
    /// gauges a last time and returns.
    ///
    /// Call it once, typically in a task of its own; a second call returns at once without counting anything.
    /// ```swift
    /// let recording = Task { await recorder.run() }
    /// stream.finish()
    /// await recording.value   // every error added before finish() is counted
    /// ```
    public func run() async {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        var counters: [SeriesKey: Counter] = [:]
        for await event in events {
            let key = Self.seriesKey(of: event)
            let counter: Counter
            if let known = counters[key] {
                counter = known
            } else {
                counter = Counter(label: labels.errors, dimensions: key.dimensions, factory: factory)
                counters[key] = counter
            }
            counter.increment()
            refreshGauges()
        }
        refreshGauges()
    }

    /// Records the stream's current drops and listeners in the gauges.
    ///
    /// ``run()`` calls it after every error; call it before a scrape too, so the gauges are current while no
    /// error arrives.
    public func refreshGauges() {
        let statistics = stream.statistics
        droppedGauge.record(Int64(clamping: statistics.dropped))
        listenersGauge.record(Int64(statistics.subscribers))
    }

    /// The `errors_total` dimensions of one event: its classification's type name, code and category, and its
    /// context's origin.
    static func seriesKey(of event: ErrorEvent) -> SeriesKey {
        let classification = Classification(of: event.error)
        return SeriesKey(
            type: classification.typeName, code: classification.code.description,
            category: classification.category.description, origin: event.origin.rawValue)
    }
}
