import ErrorStreaming

/// Errors an error storm (`S`) floods the stream with: many of few kinds, as a misbehaving feed would.
public enum StormError: ClassifiedError, CaseIterable, Sendable, Equatable {
    case rateLimited
    case staleRead
    case imageDecodeFailed

    /// Transient, or expected for images.
    public var category: ErrorCategory {
        switch self {
        case .rateLimited, .staleRead: .transient
        case .imageDecodeFailed: .expected
        }
    }

    /// `N-429`, `S-12` or `M-3`.
    public var code: ErrorCode {
        switch self {
        case .rateLimited: ErrorCode("N", 429)
        case .staleRead: ErrorCode("S", 12)
        case .imageDecodeFailed: ErrorCode("M", 3)
        }
    }

    /// What the user is told.
    public var userMessage: String {
        switch self {
        case .rateLimited: "Too many requests, slowing down"
        case .staleRead: "Showing cached content"
        case .imageDecodeFailed: "An image could not be shown"
        }
    }

    /// What the feed said.
    public var technicalMessage: String {
        switch self {
        case .rateLimited: "GET /v1/feed -> 429 Too Many Requests (retry-after: 1)"
        case .staleRead: "feed cache entry older than its max-age; served stale"
        case .imageDecodeFailed: "thumbnail decode failed: truncated JPEG"
        }
    }
}
