import ErrorStreaming
import ErrorWatchWire

/// One event a Sentry item became: the wire event the dashboard ingests and, for errors, the typed report of what
/// the SDK sent beyond it, with the event's grouping, release, environment and trace context.
public struct SentryMappedEvent: Sendable, Equatable {
    /// The event to ingest (an error, or a log line for a `log` item's records).
    public var event: WireEvent
    /// What the SDK sent beyond the wire event's members: exception chain, frames, tags, contexts, breadcrumbs.
    public var report: ExceptionReport?
    /// The SDK's grouping: its `fingerprint` when it sent one (other than only `{{ default }}`), else Sentry's
    /// default, the exception type and the in-app frames' functions; `nil` for log lines.
    public var fingerprint: String?
    /// `release`, as sent.
    public var release: String?
    /// `environment`, as sent.
    public var environment: String?
    /// The trace context's `trace_id`, as sent.
    public var traceID: String?
    /// The span's (or the trace context's) `span_id`, as sent.
    public var spanID: String?

    /// An event.
    public init(
        event: WireEvent, report: ExceptionReport? = nil, fingerprint: String? = nil, release: String? = nil,
        environment: String? = nil, traceID: String? = nil, spanID: String? = nil
    ) {
        self.event = event
        self.report = report
        self.fingerprint = fingerprint
        self.release = release
        self.environment = environment
        self.traceID = traceID
        self.spanID = spanID
    }
}
