import ErrorStreaming
import ErrorWatchWire

/// One event a Sentry item became: the wire event the dashboard ingests (with the SDK's grouping as its
/// `fingerprint`, `release` as `service.version`, `environment`, and the trace context's ids) and, for errors, the
/// typed report of what the SDK sent beyond it.
public struct SentryMappedEvent: Sendable, Equatable {
    /// The event to ingest (an error, or a log line for a `log` item's records).
    public var event: WireEvent
    /// What the SDK sent beyond the wire event's members: exception chain, frames, tags, contexts, breadcrumbs.
    public var report: ExceptionReport?

    /// An event.
    public init(event: WireEvent, report: ExceptionReport? = nil) {
        self.event = event
        self.report = report
    }
}
