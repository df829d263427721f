import ErrorStreaming
import Foundation

/// One event of the NDJSON wire format (see `docs/wire-format.md`): an error, a log record or a metric sample.
///
/// Field names follow OpenTelemetry's semantic conventions where one exists (`service.name`, `exception.type`,
/// `exception.message`, `severity_text`), written as flat dotted JSON keys. Only ``version``, ``kind`` and
/// ``time`` are required by every kind; an error needs `exception.type`, a log needs `body`, a metric needs
/// `metric.name` and `metric.value`. Unknown fields are ignored when decoding.
///
/// ```swift
/// let event = WireEvent(kind: .error, time: Date(), serviceName: "shop", exceptionType: "ShopError")
/// let line = try WireEncoder().encode(event)   // {"v":1,"kind":"error",…}\n
/// ```
public struct WireEvent: Sendable, Equatable, Codable {
    /// The format version this module writes, and the only major version it reads.
    public static let currentVersion = 1

    /// What an event describes.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An error: `exception.type` is required.
        case error
        /// A log record: `body` is required.
        case log
        /// A metric sample: `metric.name` and `metric.value` are required.
        case metric
    }

    /// `v`: the format's major version.
    public var version: Int
    /// `kind`: error, log or metric.
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

    /// Creates an event; everything but the kind and the time is optional.
    public init(
        version: Int = WireEvent.currentVersion, kind: Kind, time: Date, serviceName: String? = nil,
        pid: Int? = nil, hostName: String? = nil, source: String? = nil, exceptionType: String? = nil,
        exceptionMessage: String? = nil, userMessage: String? = nil, code: ErrorCode? = nil,
        category: ErrorCategory? = nil, severity: ErrorSeverity? = nil, origin: ErrorOrigin? = nil,
        attempt: Int? = nil, sequence: UInt64? = nil, attributes: [String: String] = [:], body: String? = nil,
        metricName: String? = nil, metricValue: Double? = nil, metricUnit: String? = nil
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
    }

    /// The JSON keys, flat and dotted as in OpenTelemetry's attribute names.
    enum CodingKeys: String, CodingKey {
        case version = "v"
        case kind, time
        case serviceName = "service.name"
        case pid = "process.pid"
        case hostName = "host.name"
        case source
        case exceptionType = "exception.type"
        case exceptionMessage = "exception.message"
        case userMessage = "message.user"
        case code = "error.code"
        case category = "error.category"
        case severity
        case severityText = "severity_text"
        case origin, attempt, sequence, attributes, body
        case logMessage = "log.message"
        case metricName = "metric.name"
        case metricValue = "metric.value"
        case metricUnit = "metric.unit"
    }

    /// The severity of an error event when the line does not say: `error`; of a log or metric: `info`.
    public var effectiveSeverity: ErrorSeverity { severity ?? (kind == .error ? .error : .info) }
}
