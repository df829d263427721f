import ErrorStreaming

/// The server answered, with a 5xx status.
public enum ServerError: ClassifiedError, Equatable, Sendable {
    /// The server answered `request` with `status`.
    case unavailable(status: Int, request: String)

    /// It usually passes.
    public var category: ErrorCategory { .transient }
    /// `N-<status>`.
    public var code: ErrorCode {
        switch self {
        case .unavailable(let status, _): ErrorCode("N", status)
        }
    }
    /// What the user is told.
    public var userMessage: String { "Server unavailable" }
    /// The request and the status.
    public var technicalMessage: String {
        switch self {
        case .unavailable(let status, let request): "\(request) -> \(status) Service Unavailable"
        }
    }
    /// An error: the server is failing.
    public var severity: ErrorSeverity { .error }
}
