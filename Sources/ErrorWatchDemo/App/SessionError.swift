import ErrorStreaming

/// The logged-in session ended.
public enum SessionError: ClassifiedError, Equatable, Sendable {
    /// The session token was rejected (HTTP 401): the user must log in again.
    case expired

    /// The user must log in again.
    public var category: ErrorCategory { .userActionable }
    /// `A-401`.
    public var code: ErrorCode { ErrorCode("A", 401) }
    /// What the user is told.
    public var userMessage: String { "Session expired, please log in again" }
    /// The request and the server's answer.
    public var technicalMessage: String { "GET /v1/profile -> 401 token_expired" }
    /// A warning: the app sends the user back to login.
    public var severity: ErrorSeverity { .warning }
}
