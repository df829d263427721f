

/// What the app does about an error, as decided by a ``ReactionPolicy``.
public enum ErrorReaction: Sendable, Hashable, CustomStringConvertible {
    /// Log and count it, nothing more.
    case ignore
    /// Tell the user, once: an ``AlertCoalescer`` folds repeats into one alert with a count.
    case alert
    /// Try the operation again, at most `maxAttempts` times in all, waiting by `backoff` in between
    /// (see ``retry(maxAttempts:backoff:clock:random:reportingTo:context:shouldRetry:isolation:operation:)``).
    case retry(maxAttempts: Int, backoff: Backoff)
    /// Abandon the flow and make the user start over (log in again, refill the form).
    case startOver
    /// Show the last cached value instead of fresh data.
    case fallBackToCache

    /// `"ignore"`, `"alert"`, `"retry(3)"`, `"startOver"`, `"fallBackToCache"`.
    public var description: String {
        switch self {
        case .ignore: "ignore"
        case .alert: "alert"
        case .retry(let maxAttempts, _): "retry(\(maxAttempts))"
        case .startOver: "startOver"
        case .fallBackToCache: "fallBackToCache"
        }
    }
}
