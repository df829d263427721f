import ErrorStreaming
import Foundation

/// One line for the Logs pane: an error from the stream or a log record, as a plain value.
///
/// Plain values only (no `any Error`, no services), so a recording or a network feed can produce them as well as
/// the live runtime. Text fields are shown through ``Sanitizer``: they may contain anything.
public struct DashboardEvent: Sendable, Hashable {
    /// Whether the line came from the error stream or from a logger.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case error
        case log
    }

    /// Increasing number assigned by the producer; used to select a line (`e`/`E`).
    public var sequence: UInt64
    /// When it happened, as its producer says (a remote line's own time); shown as UTC `HH:MM:SS`.
    public var timestamp: Date
    /// An error from the stream or a log line.
    public var kind: Kind
    /// Severity or log level; picks the colour of the level tag.
    public var level: ErrorSeverity
    /// The component that produced it, for example `auth.login`.
    public var source: String
    /// The error type (`AuthError`); for logs the logger label or empty. The per-type filter matches this.
    public var typeName: String
    /// The technical message: for an error, its exception's message (else the line's, when it had no exception).
    public var message: String
    /// A log-derived error's own sentence (pino's `msg`, structlog's `event`, CLEF's rendered `@mt`), when it says
    /// something the exception's ``message`` does not; `nil` otherwise.
    public var logMessage: String?
    /// The message a user would be shown, if any.
    public var userMessage: String?
    /// The stable code, shown as `[N-503]` before the message; `nil` when nobody gave one.
    public var code: ErrorCode?
    /// The code as a remote producer wrote it (`L-042`, `40001`, `ERR_CONN_RESET`), shown and matched instead of
    /// ``code``; `nil` for this process's own errors and for producers that gave none.
    public var codeText: String?
    /// The error's category; colours the type column.
    public var category: ErrorCategory?
    /// Background errors are marked `bg ·` in Logs and never alert.
    public var origin: ErrorOrigin
    /// The attempt number of a retried operation.
    public var attempt: Int?
    /// Free-form key-value pairs; shown sorted in the detail view, not drawn in the list.
    public var metadata: [String: String]
    /// The error's fully qualified type (`ErrorWatchDemo.ServerError`); empty for log lines.
    public var qualifiedTypeName: String
    /// The key alerts and issues group errors by (type and code by default); `nil` for log lines.
    public var fingerprint: String?
    /// Where an event from outside came from and when (service, version, environment, host, process, trace, where
    /// and when the dashboard read it, through which way in): one value, as the receiver made it. `nil` for the
    /// dashboard's own process's events. The accessors below read it.
    public var provenance: Provenance?
    /// The producer's stack trace (`exception.stacktrace`), if it sent one.
    public var stackTrace: String?
    /// Where the error was added or thrown (`File.swift:42 in function()`), if known. Kept as the stream's
    /// compact location and turned into text only when a detail view shows it.
    public var location: CodeLocation?
    /// What an error reporter SDK (Sentry) sent beyond the common fields, shown by the detail view; `nil` otherwise.
    public var report: ExceptionReport?

    /// Creates an event; text fields are sanitised when the reducer receives it. The provenance members (`service`,
    /// `from`, `pid`, `host`, `receivedAt`, `traceID`, `spanID`, `serviceVersion`, `environment`) make its
    /// ``provenance`` when any is given; `provenance` itself wins over them.
    public init(
        sequence: UInt64, timestamp: Date, kind: Kind, level: ErrorSeverity, source: String, typeName: String,
        message: String, userMessage: String? = nil, code: ErrorCode? = nil, category: ErrorCategory? = nil,
        origin: ErrorOrigin = .user, attempt: Int? = nil, metadata: [String: String] = [:],
        qualifiedTypeName: String = "", fingerprint: String? = nil, service: String? = nil, from: String? = nil,
        stackTrace: String? = nil, location: CodeLocation? = nil, pid: Int? = nil, host: String? = nil,
        receivedAt: Date? = nil, traceID: String? = nil, spanID: String? = nil, serviceVersion: String? = nil,
        environment: String? = nil, logMessage: String? = nil, codeText: String? = nil, provenance: Provenance? = nil
    ) {
        let given =
            service != nil || from != nil || pid != nil || host != nil || receivedAt != nil || traceID != nil
            || spanID != nil || serviceVersion != nil || environment != nil
        self.provenance =
            provenance
            ?? (given
                ? Provenance(
                    time: timestamp, service: service, serviceVersion: serviceVersion, environment: environment,
                    host: host, pid: pid, traceID: traceID, spanID: spanID, receivedFrom: from, receivedAt: receivedAt)
                : nil)
        self.logMessage = logMessage
        self.codeText = codeText
        self.qualifiedTypeName = qualifiedTypeName
        self.fingerprint = fingerprint
        self.stackTrace = stackTrace
        self.location = location
        self.sequence = sequence
        self.timestamp = timestamp
        self.kind = kind
        self.level = level
        self.source = source
        self.typeName = typeName
        self.message = message
        self.userMessage = userMessage
        self.code = code
        self.category = category
        self.origin = origin
        self.attempt = attempt
        self.metadata = metadata
    }

    /// The producing service (`service.name`); `nil` for the dashboard's own process or a producer that named none.
    public var service: String? { provenance?.service }
    /// The producing process (`process.pid`) and host (`host.name`), if the producer said.
    public var pid: Int? { provenance?.pid }
    public var host: String? { provenance?.host }
    /// Where the dashboard read it (`this process` has none): a socket peer, a file, a recording.
    public var from: String? { provenance?.receivedFrom }
    /// When the dashboard read it from outside; `nil` for this process's own events.
    public var receivedAt: Date? { provenance?.receivedAt }
    /// The trace and span it belongs to, if the producer said.
    public var traceID: String? { provenance?.traceID }
    public var spanID: String? { provenance?.spanID }
    /// The producer's version (`service.version`) and environment (`deployment.environment.name`), if it said.
    public var serviceVersion: String? { provenance?.serviceVersion }
    public var environment: String? { provenance?.environment }
    /// The kind of way in that read it; `nil` for this process's own events.
    public var channel: EventChannel? { provenance?.channel }
    /// Whether its ``origin`` was said by its producer (this process's own events always say).
    public var originSent: Bool { provenance?.originSent ?? true }

    /// The code as shown: the producer's own text, else the stable code, else nothing.
    public var shownCode: String? { codeText ?? code?.description }

    /// How far the event's own time is from when it was read, when that is more than a day and it came by a live
    /// way in (a connection, an exporter): a clock or a time zone that is off. A file, a pipe or a recording may
    /// hold old lines, so theirs are never judged. Shown in the detail view; the time itself is shown as it was sent.
    public var skew: TimeInterval? { provenance?.skew }
}
