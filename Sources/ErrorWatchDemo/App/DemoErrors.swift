import ErrorStreaming

// What the simulated app can fail with, one type per domain, so the dashboard's per-type filters (`1`…`9`)
// separate credentials from network from server problems. Each type classifies itself: a stable code, a message
// for the user and one for the developer.

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

/// The device's network failed: no connection, or no answer in time.
public enum NetworkError: ClassifiedError, Equatable, Sendable {
    /// The device has no network connection.
    case offline
    /// The server did not answer in time.
    case timeout(after: Duration)

    /// Offline is for the user to fix; a timeout may pass by itself.
    public var category: ErrorCategory {
        switch self {
        case .offline: .userActionable
        case .timeout: .transient
        }
    }

    /// `N-1` or `N-408`.
    public var code: ErrorCode {
        switch self {
        case .offline: ErrorCode("N", 1)
        case .timeout: ErrorCode("N", 408)
        }
    }

    /// What the user is told.
    public var userMessage: String {
        switch self {
        case .offline: "You are offline"
        case .timeout: "The server is not answering"
        }
    }

    /// What the socket said.
    public var technicalMessage: String {
        switch self {
        case .offline: "connect(): network is unreachable (ENETUNREACH)"
        case .timeout(let after): "request timed out after \(after.wholeMilliseconds) ms"
        }
    }

    /// A warning: the app retries.
    public var severity: ErrorSeverity { .warning }
}

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

/// A background sync attempt failed; the sync retries and, failing that, runs again later.
public struct SyncError: ClassifiedError, Equatable, Sendable {
    /// The code of what made the attempt fail (`N-503`, `N-1`).
    public var cause: ErrorCode
    /// What made it fail, technically.
    public var reason: String

    /// A failed attempt, caused by an error classified as `cause`.
    public init(cause: ErrorCode, reason: String) {
        self.cause = cause
        self.reason = reason
    }

    /// It passes by itself.
    public var category: ErrorCategory { .transient }
    /// `S-1`.
    public var code: ErrorCode { ErrorCode("S", 1) }
    /// Never shown: sync errors are background errors.
    public var userMessage: String { "Changes will sync later" }
    /// The cause.
    public var technicalMessage: String { "sync upload failed: \(cause) \(reason)" }
    /// A warning: nothing is lost.
    public var severity: ErrorSeverity { .warning }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
