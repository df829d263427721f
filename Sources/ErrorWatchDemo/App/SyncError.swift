import ErrorStreaming

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
