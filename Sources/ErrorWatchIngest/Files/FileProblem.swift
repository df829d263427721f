import ErrorWatchWire
import Foundation
import Synchronization

/// A file or pipe that could not be used, as one sentence with the path and the system's reason:
/// `cannot open /var/log/app.log: permission denied`.
public struct FileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path concerned.
    public var path: String
    /// What was being done: `open`, `read`.
    public var doing: String
    /// The system's reason in lower case, like `permission denied`.
    public var reason: String

    /// A problem from an `errno` value.
    public init(path: String, errno code: Int32, doing: String) {
        self.path = path
        self.doing = doing
        self.reason = Self.reason(code)
    }

    /// A problem with a reason of our own (`it is a directory`).
    public init(path: String, doing: String, reason: String) {
        self.path = path
        self.doing = doing
        self.reason = reason
    }

    /// `cannot open PATH: permission denied`.
    public var description: String { "cannot \(doing) \(path): \(reason)" }

    /// The C library's message for `code`, with a lower-case first letter: `permission denied`.
    public static func reason(_ code: Int32) -> String {
        guard let text = strerror(code).map({ String(cString: $0) }), let first = text.first else {
            return "error \(code)"
        }
        return first.lowercased() + text.dropFirst()
    }
}
