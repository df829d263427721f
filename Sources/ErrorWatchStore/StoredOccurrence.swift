import Foundation

/// One occurrence in full, as the store keeps it: what the producer sent, as it sent it. Fields nobody sent stay
/// `nil`.
public struct StoredOccurrence: Sendable, Hashable, Codable {
    /// The producer's time for it.
    public var timestamp: Date
    /// When the dashboard read it, if it came from another process.
    public var receivedAt: Date?
    /// The technical message, whole: the exception's words for a log-derived error.
    public var message: String
    /// The log line's own message, when the error came from a log line that had one besides its exception
    /// (pino's `msg`, structlog's `event`…); `nil` otherwise, and in occurrences stored before it was kept.
    public var logMessage: String?
    /// What the user was told, if anything.
    public var userMessage: String?
    /// The producing service.
    public var service: String?
    /// Its `service.version`.
    public var version: String?
    /// Its `deployment.environment.name`.
    public var environment: String?
    /// The host and process it came from.
    public var host: String?
    public var pid: Int?
    /// The component or source that produced it.
    public var source: String?
    /// Trace context.
    public var traceID: String?
    public var spanID: String?
    /// The stack trace as sent.
    public var stack: String?
    /// The handling path (`checkout > payment`), when the handler tree reported one.
    public var handling: String?
    /// Any other attributes, by name.
    public var attributes: [String: String]

    /// An occurrence.
    public init(
        timestamp: Date, receivedAt: Date? = nil, message: String, logMessage: String? = nil,
        userMessage: String? = nil, service: String? = nil,
        version: String? = nil, environment: String? = nil, host: String? = nil, pid: Int? = nil,
        source: String? = nil, traceID: String? = nil, spanID: String? = nil, stack: String? = nil,
        handling: String? = nil, attributes: [String: String] = [:]
    ) {
        self.timestamp = timestamp
        self.receivedAt = receivedAt
        self.message = message
        self.logMessage = logMessage
        self.userMessage = userMessage
        self.service = service
        self.version = version
        self.environment = environment
        self.host = host
        self.pid = pid
        self.source = source
        self.traceID = traceID
        self.spanID = spanID
        self.stack = stack
        self.handling = handling
        self.attributes = attributes
    }
}
