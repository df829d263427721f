import ErrorStreaming
import Foundation

/// One event of the NDJSON wire format (see `docs/wire-format.md`): an error, a log record, a metric sample,
/// a producer's status, or how a producer's handler tree handled one of its errors.
///
/// Field names follow OpenTelemetry's semantic conventions where one exists (`service.name`, `exception.type`,
/// `exception.message`, `severity_text`, `code.filepath`), written as flat dotted JSON keys. Only ``version``,
/// ``kind`` and ``time`` are required by every kind; an error needs `exception.type`, a log needs `body`, a metric
/// needs `metric.name` and `metric.value`, a status needs `status.name` and `status.state`, a handling event
/// needs `sequence`. Unknown fields are ignored when decoding.
///
/// ```swift
/// let event = WireEvent(kind: .error, time: Date(), serviceName: "shop", exceptionType: "ShopError")
/// let line = try WireEncoder().encode(event)   // {"v":1,"kind":"error",…}\n
/// ```
public struct WireEvent: Sendable, Equatable, Codable {
    /// The format version this module writes, and the only major version it reads.
    public static let currentVersion = 1

    /// The attribute that marks an event whose producer's time could not be read (`2026-13-01T…`, `1e308`, `-1`):
    /// its value is the time as sent, and the event's ``time`` is when it was read. Such an event is counted, never
    /// dropped; the detail view and `errorwatch issues show` list the attribute with the others.
    public static let unreadableTimeAttribute = "errorwatch.unreadable_time"

    /// What an event describes.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An error: `exception.type` is required.
        case error
        /// A log record: `body` is required.
        case log
        /// A metric sample: `metric.name` and `metric.value` are required; `metric.kind` says how to combine them.
        case metric
        /// A named status the producer publishes about itself (a job, a connection, a worker): `status.name` and
        /// `status.state` are required. A receiver keeps the latest status per `service.name` and `status.name`.
        case status
        /// How the producer's ``ErrorHandler`` tree handled one of its errors: `sequence` (required) is the
        /// producer's sequence of that error's event; `handling.path`, `handling.outcome` and `handling.handled`
        /// say which nodes' actions ran and how it ended (see ``HandlingReport``).
        case handling
    }

    /// The most entries `handling.path` may have; a longer array makes the line malformed.
    public static let maximumHandlingPathCount = 64

    /// `v`: the format's major version.
    public var version: Int
    /// `kind`: error, log, metric, status or handling.
    public var kind: Kind
    /// `time`: when it happened, written as RFC 3339 in UTC with microseconds.
    public var time: Date
    /// `service.name`: the producing application.
    public var serviceName: String?
    /// `process.pid`: the producing process.
    public var pid: Int?
    /// `host.name`: the producing host.
    public var hostName: String?
    /// `source`: the component inside the producer (an ``ErrorContext/source`` or a swift-log label).
    public var source: String?
    /// `exception.type`: the error's fully qualified type name.
    public var exceptionType: String?
    /// `exception.message`: the technical message.
    public var exceptionMessage: String?
    /// `message.user`: the sentence shown to a user.
    public var userMessage: String?
    /// `error.code`: the stable code, like `N-503`.
    public var code: ErrorCode?
    /// `error.category`: bug, userActionable, transient, unrecoverable or expected.
    public var category: ErrorCategory?
    /// `severity` (or OpenTelemetry's `severity_text` when reading).
    public var severity: ErrorSeverity?
    /// `origin`: user or background.
    public var origin: ErrorOrigin?
    /// `attempt`: the attempt number of a retried operation, from 1.
    public var attempt: Int?
    /// `sequence`: the producer's sequence number for the event.
    public var sequence: UInt64?
    /// `attributes`: free-form string metadata.
    public var attributes: [String: String]
    /// `body`: a log record's message (OpenTelemetry's log `Body`).
    public var body: String?
    /// `metric.name`.
    public var metricName: String?
    /// `metric.value`.
    public var metricValue: Double?
    /// `metric.unit`, UCUM-style as in OpenTelemetry (`ms`, `By`, `1`).
    public var metricUnit: String?
    /// `metric.kind`: how a receiver combines a metric's samples; absent means ``WireMetricKind/gauge``.
    public var metricKind: WireMetricKind?
    /// `status.name`: which of the producer's statuses this is (`reconciler`, `db.pool`).
    public var statusName: String?
    /// `status.state`: the producer's own word for where it is (`running`, `pass 7 of 9`, `stopped`).
    public var statusState: String?
    /// `status.health`: how the state looks to a dashboard; absent means ``StatusHealth/ok``.
    public var statusHealth: StatusHealth?
    /// `status.detail`: a line of explanation shown beside the state.
    public var statusDetail: String?
    /// `exception.stacktrace`: the error's stack trace as the producer wrote it (OpenTelemetry's name).
    public var exceptionStacktrace: String?
    /// `code.filepath`: the source file the error was raised in (a Swift producer writes its `#fileID`).
    public var codeFilePath: String?
    /// `code.lineno`: the line in ``codeFilePath``, from 1.
    public var codeLineNumber: Int?
    /// `code.function`: the function the error was raised in.
    public var codeFunction: String?
    /// `handling.path`: the names of the handler nodes whose action ran, root side first; at most
    /// ``maximumHandlingPathCount`` entries.
    public var handlingPath: [String]?
    /// `handling.outcome`: `consumed by NODE`, `rewritten by NODE to TYPE`, `passed` or `unhandled`
    /// (``HandlingOutcome``'s words; parse them with ``HandlingOutcome/init(parsing:)``).
    public var handlingOutcome: String?
    /// `handling.handled`: whether some handler node consumed the error.
    public var handlingHandled: Bool?
    /// `trace_id`: the trace the event belongs to, as 32 lowercase hex digits.
    public var traceID: String?
    /// `span_id`: the span the event belongs to, as 16 lowercase hex digits.
    public var spanID: String?
    /// `service.version`: the producing application's version, as the producer wrote it (`2.4.1`, `a1b2c3d`).
    public var serviceVersion: String?
    /// `deployment.environment.name`: where the producer runs (`production`, `staging`).
    public var deploymentEnvironment: String?
    /// `fingerprint`: the producer's own grouping key for an error; when present it decides the error's issue.
    public var fingerprint: String?
    /// `exception.report`: what an error reporter SDK (Sentry's) sent beyond the members above, as the receiver
    /// bounded it; recordings keep it, so a replayed error's detail is the live one's.
    public var report: ExceptionReport?
    /// `error.code` exactly as the producer wrote it (`L-042`, `40001`, `ERR_CONN_RESET`), at most
    /// ``maximumCodeLength`` characters, when that differs from ``code``'s text; ``code`` is the same text read as an
    /// ``ErrorCode`` when it is one (`L-042` reads as `L-42`). ``shownCode`` is what was sent either way; set both
    /// with ``setVerbatimCode(_:)``.
    public var codeText: String?

    /// The most characters of `error.code` kept.
    public static let maximumCodeLength = 64

    /// Sets ``codeText`` to `text` as sent (cut to ``maximumCodeLength`` characters), and ``code`` to it read as an
    /// ``ErrorCode`` when it is one, else `nil`.
    public mutating func setVerbatimCode(_ text: String) {
        // No more bytes than the limit means no more characters: the count of characters only for long codes.
        let long = text.utf8.count > Self.maximumCodeLength && text.count > Self.maximumCodeLength
        let kept = long ? String(text.prefix(Self.maximumCodeLength)) : text
        code = ErrorCode(parsing: kept)
        codeText = code?.description == kept ? nil : kept
    }

    /// The code as the producer wrote it: ``codeText``, else ``code``'s text.
    public var shownCode: String? { codeText ?? code?.description }

    /// Creates an event; everything but the kind and the time is optional.
    ///
    /// The members added after the first release (`metricKind`, the `status…`, `exception.stacktrace`, `code…` and
    /// `handling…` members, then the trace, release and fingerprint members) come last, so that callers written
    /// before them still compile. Never inlined: inlined, the event was built aside and then copied member by member
    /// into its place (forty members, about twenty-five references retained and released again), which cost the
    /// log reader, that makes one event per line, more than passing the members does.
    @inline(never)
    public init(
        version: Int = WireEvent.currentVersion, kind: Kind, time: Date, serviceName: String? = nil,
        pid: Int? = nil, hostName: String? = nil, source: String? = nil, exceptionType: String? = nil,
        exceptionMessage: String? = nil, userMessage: String? = nil, code: ErrorCode? = nil,
        category: ErrorCategory? = nil, severity: ErrorSeverity? = nil, origin: ErrorOrigin? = nil,
        attempt: Int? = nil, sequence: UInt64? = nil, attributes: [String: String] = [:], body: String? = nil,
        metricName: String? = nil, metricValue: Double? = nil, metricUnit: String? = nil,
        metricKind: WireMetricKind? = nil, statusName: String? = nil, statusState: String? = nil,
        statusHealth: StatusHealth? = nil, statusDetail: String? = nil, exceptionStacktrace: String? = nil,
        codeFilePath: String? = nil, codeLineNumber: Int? = nil, codeFunction: String? = nil,
        handlingPath: [String]? = nil, handlingOutcome: String? = nil, handlingHandled: Bool? = nil,
        traceID: String? = nil, spanID: String? = nil, serviceVersion: String? = nil,
        deploymentEnvironment: String? = nil, fingerprint: String? = nil
    ) {
        self.version = version
        self.kind = kind
        self.time = time
        self.serviceName = serviceName
        self.pid = pid
        self.hostName = hostName
        self.source = source
        self.exceptionType = exceptionType
        self.exceptionMessage = exceptionMessage
        self.userMessage = userMessage
        self.code = code
        self.category = category
        self.severity = severity
        self.origin = origin
        self.attempt = attempt
        self.sequence = sequence
        self.attributes = attributes
        self.body = body
        self.metricName = metricName
        self.metricValue = metricValue
        self.metricUnit = metricUnit
        self.metricKind = metricKind
        self.statusName = statusName
        self.statusState = statusState
        self.statusHealth = statusHealth
        self.statusDetail = statusDetail
        self.exceptionStacktrace = exceptionStacktrace
        self.codeFilePath = codeFilePath
        self.codeLineNumber = codeLineNumber
        self.codeFunction = codeFunction
        self.handlingPath = handlingPath
        self.handlingOutcome = handlingOutcome
        self.handlingHandled = handlingHandled
        self.traceID = traceID
        self.spanID = spanID
        self.serviceVersion = serviceVersion
        self.deploymentEnvironment = deploymentEnvironment
        self.fingerprint = fingerprint
    }

    /// The severity of an error event when the line does not say: `error`; of any other kind: `info`.
    public var effectiveSeverity: ErrorSeverity { severity ?? (kind == .error ? .error : .info) }

    /// How to combine this metric's samples: ``metricKind``, or ``WireMetricKind/gauge`` when the line does not say.
    public var effectiveMetricKind: WireMetricKind { metricKind ?? .gauge }

    /// This status's health: ``statusHealth``, or ``StatusHealth/ok`` when the line does not say.
    public var effectiveStatusHealth: StatusHealth { statusHealth ?? .ok }
}

