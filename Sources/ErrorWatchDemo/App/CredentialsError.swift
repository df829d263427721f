import ErrorStreaming

/// The user typed a wrong email or password.
public enum CredentialsError: ClassifiedError, Equatable, Sendable {
    /// The server rejected the email and password.
    case rejected

    /// The user can fix it.
    public var category: ErrorCategory { .userActionable }
    /// `A-101`.
    public var code: ErrorCode { ErrorCode("A", 101) }
    /// What the user is told.
    public var userMessage: String { "Wrong email or password" }
    /// The request and the server's answer.
    public var technicalMessage: String { "POST /v1/session -> 401 invalid_grant" }
    /// A warning: nothing is broken.
    public var severity: ErrorSeverity { .warning }
}
