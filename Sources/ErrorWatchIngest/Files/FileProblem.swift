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

    /// Why a file of type `mode` (`stat`'s `st_mode`) cannot be followed as a log, or `nil` for a regular file or,
    /// where `allowingPipes`, a named pipe: a directory, a socket (with the flag that accepts producers on one), a
    /// device (reading `/dev/zero` would never end) or anything else.
    public static func notFollowable(mode: mode_t, allowingPipes: Bool) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return allowingPipes ? nil : "it is a named pipe, not a regular file"
        case S_IFDIR: return "it is a directory"
        case S_IFSOCK: return "it is a socket (use --listen unix:PATH to accept producers on a socket)"
        case S_IFCHR, S_IFBLK: return "it is a device"
        default: return "it is not a regular file or a named pipe"
        }
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
