/// How serious an error is, from a debug-level curiosity to a critical failure.
///
/// The levels line up with swift-log's `Logger.Level` (without `trace`), so an error can be logged
/// at its own severity without a translation table.
public enum ErrorSeverity: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    case debug
    case info
    case notice
    case warning
    case error
    case critical

    public static func < (lhs: ErrorSeverity, rhs: ErrorSeverity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The lowercase name, as used in logs and on the wire: `"warning"`.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// Parses a lowercase name such as `"warning"`; `nil` for anything else.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}

/// Where an error came from, as far as the user is concerned.
///
/// Errors of `.user` origin come from something the user did and may raise an alert. Errors of
/// `.background` origin (a periodic sync, a prefetch) are logged and counted but never alert.
public enum ErrorOrigin: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case user
    case background

    public var description: String { rawValue }
}

/// What a producer knows about an error at the moment it adds it to an ``ErrorStream``.
///
/// ```swift
/// stream.add(error, context: ErrorContext(source: "auth.login", severity: .warning, origin: .user))
/// ```
public struct ErrorContext: Sendable, Hashable {
    /// The component that produced the error, for example `"auth.login"`.
    public var source: String
    /// How serious the producer considers the error.
    public var severity: ErrorSeverity
    /// Whether the user caused it (and may be alerted) or it happened in the background.
    public var origin: ErrorOrigin
    /// The attempt number when the error comes from a retried operation (1 for the first try).
    public var attempt: Int?
    /// Free-form key-value pairs, shown in logs and sent on the wire.
    public var metadata: [String: String]

    /// Creates a context; every field has a default, so `ErrorContext()` describes an unlabelled user error.
    public init(
        source: String = "app",
        severity: ErrorSeverity = .error,
        origin: ErrorOrigin = .user,
        attempt: Int? = nil,
        metadata: [String: String] = [:]
    ) {
        self.source = source
        self.severity = severity
        self.origin = origin
        self.attempt = attempt
        self.metadata = metadata
    }

    /// The context used by ``ErrorStream/add(_:)``: source `"app"`, severity `.error`, origin `.user`.
    public static let `default` = ErrorContext()
}
