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
    public var timestamp: Date
    public var kind: Kind
    public var level: ErrorSeverity
    /// The component that produced it, for example `auth.login`.
    public var source: String
    /// The error type (`AuthError`); for logs the logger label or empty. The per-type filter matches this.
    public var typeName: String
    /// The technical message.
    public var message: String
    /// The message a user would be shown, if any.
    public var userMessage: String?
    public var code: ErrorCode?
    public var category: ErrorCategory?
    public var origin: ErrorOrigin
    /// The attempt number of a retried operation.
    public var attempt: Int?
    public var metadata: [String: String]

    public init(
        sequence: UInt64, timestamp: Date, kind: Kind, level: ErrorSeverity, source: String, typeName: String,
        message: String, userMessage: String? = nil, code: ErrorCode? = nil, category: ErrorCategory? = nil,
        origin: ErrorOrigin = .user, attempt: Int? = nil, metadata: [String: String] = [:]
    ) {
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
}

/// A coalesced, user-facing alert for the Errors pane, produced upstream by an alert coalescer.
///
/// The reducer upserts by ``fingerprint``: a record with a known fingerprint replaces the previous one (its count,
/// `lastSeen`, title…). Records of `.background` origin are ignored: background errors never alert.
public struct AlertRecord: Sendable, Hashable {
    /// Identity of the alert, for example `"N-503|sync"`.
    public var fingerprint: String
    /// The user message: `Server unavailable`.
    public var title: String
    public var code: ErrorCode?
    public var severity: ErrorSeverity
    public var category: ErrorCategory
    /// How many errors were coalesced into this alert; shown as `×12` when above 1.
    public var count: Int
    public var firstSeen: Date
    public var lastSeen: Date
    public var source: String
    /// The error type, so the per-type filter also applies to alerts; empty when unknown.
    public var typeName: String
    public var origin: ErrorOrigin

    public init(
        fingerprint: String, title: String, code: ErrorCode? = nil, severity: ErrorSeverity,
        category: ErrorCategory, count: Int = 1, firstSeen: Date, lastSeen: Date, source: String,
        typeName: String = "", origin: ErrorOrigin = .user
    ) {
        self.fingerprint = fingerprint
        self.title = title
        self.code = code
        self.severity = severity
        self.category = category
        self.count = count
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.source = source
        self.typeName = typeName
        self.origin = origin
    }
}
