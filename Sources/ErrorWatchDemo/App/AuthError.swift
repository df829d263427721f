import ErrorStreaming

/// What the simulated authentication backend can fail with. Each case carries its classification, so the
/// dashboard shows a stable code, a message for the user and one for the developer.
public enum AuthError: ClassifiedError, Equatable, Sendable {
    /// The user typed a wrong email or password.
    case invalidCredentials
    /// The device has no network connection.
    case offline
    /// The server did not answer in time.
    case timeout(after: Duration)
    /// The server answered `request` with a 5xx status.
    case serverUnavailable(status: Int, request: String)
    /// The session token was rejected (HTTP 401): the user must log in again.
    case sessionExpired

    public var category: ErrorCategory {
        switch self {
        case .invalidCredentials, .offline, .sessionExpired: .userActionable
        case .timeout, .serverUnavailable: .transient
        }
    }

    public var code: ErrorCode {
        switch self {
        case .invalidCredentials: ErrorCode("A", 101)
        case .sessionExpired: ErrorCode("A", 401)
        case .offline: ErrorCode("N", 1)
        case .timeout: ErrorCode("N", 408)
        case .serverUnavailable(let status, _): ErrorCode("N", status)
        }
    }

    public var userMessage: String {
        switch self {
        case .invalidCredentials: "Wrong email or password"
        case .offline: "You are offline"
        case .timeout: "The server is not answering"
        case .serverUnavailable: "Server unavailable"
        case .sessionExpired: "Session expired, please log in again"
        }
    }

    public var technicalMessage: String {
        switch self {
        case .invalidCredentials: "POST /v1/session -> 401 invalid_grant"
        case .offline: "connect(): network is unreachable (ENETUNREACH)"
        case .timeout(let after): "request timed out after \(after.wholeMilliseconds) ms"
        case .serverUnavailable(let status, let request): "\(request) -> \(status) Service Unavailable"
        case .sessionExpired: "GET /v1/profile -> 401 token_expired"
        }
    }

    public var severity: ErrorSeverity {
        switch self {
        case .invalidCredentials, .sessionExpired: .warning
        case .offline, .timeout: .warning
        case .serverUnavailable: .error
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
