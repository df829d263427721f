import CoreMetrics
import ErrorWatchWire
import Synchronization

/// Remote producers' metric samples, recorded in the dashboard's metrics backend: a gauge's reading, a counter's
/// increment or a histogram's observation. Remote metrics get their own namespace (`remote.`, so a producer cannot
/// overwrite the dashboard's own) and a cap on distinct series (so a producer cannot grow the registry without
/// bound).
final class RemoteMetrics: Sendable {
    /// At most this many distinct series are kept; later new ones are ignored.
    let maximumSeries: Int
    private let metrics: DashboardMetrics
    private let series = Mutex<Set<DashboardMetrics.Key>>([])

    init(metrics: DashboardMetrics, maximumSeries: Int) {
        self.metrics = metrics
        self.maximumSeries = maximumSeries
    }

    /// Records one `metric` event; events without a name or a finite value, and new series past the cap, are
    /// ignored.
    func record(_ event: WireEvent) {
        guard let name = event.metricName, let value = event.metricValue, value.isFinite else { return }
        let label = "remote." + name
        let service = event.serviceName ?? "remote"
        var dimensions = event.attributes.sorted { $0.key < $1.key }.prefix(4).map { ($0.key, $0.value) }
        dimensions.removeAll { $0.0 == "service" }
        dimensions.append(("service", service))
        guard admit(DashboardMetrics.Key(label: label, dimensions: dimensions)) else { return }
        if let unit = event.metricUnit { metrics.setUnit(unit, for: label, service: service) }
        switch event.effectiveMetricKind {
        case .gauge:
            Gauge(label: label, dimensions: dimensions, factory: metrics).record(value)
        case .counter:
            // Increments are whole (a fraction is rounded); negative ones are ignored, as swift-metrics does.
            guard value >= 0 else { return }
            let increment = value >= 9.2e18 ? Int64.max : Int64(value.rounded())
            Counter(label: label, dimensions: dimensions, factory: metrics).increment(by: increment)
        case .histogram:
            Recorder(label: label, dimensions: dimensions, aggregate: true, factory: metrics).record(value)
        }
    }

    private func admit(_ key: DashboardMetrics.Key) -> Bool {
        series.withLock { series in
            if series.contains(key) { return true }
            guard series.count < maximumSeries else { return false }
            series.insert(key)
            return true
        }
    }
}
