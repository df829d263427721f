import ErrorStreaming
import Foundation

/// How the app's handler tree dealt with an error, joined to its event by sequence number.
public struct HandlingSummary: Sendable, Hashable {
    /// The nodes whose action ran on the way down, in order.
    public var path: [String]
    /// `consumed by NODE`, `rewritten by NODE to TYPE`, `passed` or `unhandled`.
    public var outcome: String
    /// What the tree's `finally` was told: whether it was handled.
    public var handled: Bool

    /// A summary.
    public init(path: [String], outcome: String, handled: Bool) {
        self.path = path
        self.outcome = outcome
        self.handled = handled
    }
}
