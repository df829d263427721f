import ErrorStreaming

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
        case .timeout(let after): "request timed out after \(after.wholeMilliseconds()) ms"
        }
    }

    /// A warning: the app retries.
    public var severity: ErrorSeverity { .warning }
}
