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
    /// For an error another process reported, the error itself with everything its producer said and where it came
    /// from (the same value the event's ``ErrorEvent/error`` is): consumers read it here, never by casting the error.
    /// `nil` for this process's own errors.
    public var remote: RemoteError?

    /// Creates a context; every field has a default, so `ErrorContext()` describes an unlabelled user error.
    public init(
        source: String = "app",
        severity: ErrorSeverity = .error,
        origin: ErrorOrigin = .user,
        attempt: Int? = nil,
        metadata: [String: String] = [:],
        remote: RemoteError? = nil
    ) {
        self.source = source
        self.severity = severity
        self.origin = origin
        self.attempt = attempt
        self.metadata = metadata
        self.remote = remote
    }

    /// The context used by ``ErrorStream/add(_:)``: source `"app"`, severity `.error`, origin `.user`.
    public static let `default` = ErrorContext()
}
