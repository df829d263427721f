/// What a detail view shows.
public enum DetailTarget: Sendable, Hashable {
    /// One event (a Logs line or an occurrence), by sequence number.
    case event(UInt64)
    /// A coalesced alert, by fingerprint.
    case alert(String)
    /// An issue, by fingerprint.
    case issue(String)
    /// A template of the Patterns view, by id.
    case pattern(Int)
    /// A trace of the Traces view, by id.
    case trace(String)
    /// One span of a trace, by trace id and span id.
    case span(traceID: String, spanID: UInt64)
    /// The chart of a series of the Metrics pane, by ``MetricSeries/id``.
    case metric(String)
}
