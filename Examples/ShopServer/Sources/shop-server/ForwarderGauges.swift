import CoreMetrics
import ErrorWatchWire

/// The forwarder's own health on /metrics: lines sent and dropped, so a scrape shows whether the dashboard saw
/// everything.
struct ForwarderGauges: Sendable {
    let forwarder: ErrorForwarder
    let sent: CoreMetrics.Gauge
    let dropped: CoreMetrics.Gauge

    init(forwarder: ErrorForwarder, factory: any MetricsFactory) {
        self.forwarder = forwarder
        self.sent = CoreMetrics.Gauge(label: "errorwatch_forwarder_sent", factory: factory)
        self.dropped = CoreMetrics.Gauge(label: "errorwatch_forwarder_dropped", factory: factory)
    }

    func refresh() {
        let statistics = forwarder.statistics
        sent.record(Int64(clamping: statistics.sent))
        dropped.record(Int64(clamping: statistics.dropped))
    }
}
