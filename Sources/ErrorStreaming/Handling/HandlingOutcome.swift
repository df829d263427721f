

/// How the descent of an ``ErrorHandler`` tree ended for one error.
///
/// The descent runs, from the root down to the node the error was thrown at, the action of every node that
/// takes the error (a catch-all node, a typed node whose type or value matches). An action returns (consumes
/// the error) or throws (passes on what it threw). The outcome is the first of these that applies:
///
/// - `rewritten by NODE to TYPE`: NODE's action threw an error other than the one it was given, and the rest of
///   the descent carried that one instead (the last such rewrite is named; TYPE is the short type name).
///   `handled` says whether a node below then consumed the rewritten error; if so, it is the path's last node.
/// - `consumed by NODE`: NODE's action returned. `handled` is `true`.
/// - `passed`: at least one action ran, every one threw the error on unchanged, and it left the tree.
///   `handled` is `false`.
/// - `unhandled`: no action ran at all; the path held only pass-through nodes (roots, listeners) and typed
///   nodes whose type or value did not match. `handled` is `false` and the path is empty.
///
/// `passed` and `unhandled` both mean "not consumed"; they differ in whether the app looked. A `passed` error
/// was seen by actions that chose to let it through; an `unhandled` one reached no action, which usually means
/// the tree has no handler for it. Two errors count as the same when they have the same type and, when the type
/// is `Equatable`, are equal; so an action that throws a non-`Equatable` error of the type it was given passes
/// it on rather than rewriting it.
public enum HandlingOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The named node's action returned: it handled the error.
    case consumed(by: String)
    /// The named node's action threw an error of another type or value, named by its short type name, which
    /// the nodes below then saw.
    case rewritten(by: String, to: String)
    /// Actions saw the error and threw it on unchanged; none consumed it.
    case passed
    /// No action on the path ran for the error.
    case unhandled

    /// `consumed by NODE`, `rewritten by NODE to TYPE`, `passed` or `unhandled`: the words of the wire format's
    /// `handling.outcome`.
    public var description: String {
        switch self {
        case .consumed(let node): "consumed by \(node)"
        case .rewritten(let node, let type): "rewritten by \(node) to \(type)"
        case .passed: "passed"
        case .unhandled: "unhandled"
        }
    }

    /// Parses the words of ``description``; `nil` for anything else.
    ///
    /// A node name may contain spaces and even ` to `; a rewrite is split at the *last* ` to `, since a type name
    /// never contains one.
    ///
    /// ```swift
    /// HandlingOutcome(parsing: "rewritten by log in to SessionError")
    /// // .rewritten(by: "log in", to: "SessionError")
    /// ```
    public init?(parsing words: String) {
        switch words {
        case "passed": self = .passed
        case "unhandled": self = .unhandled
        default:
            if words.hasPrefix("consumed by "), words.count > "consumed by ".count {
                self = .consumed(by: String(words.dropFirst("consumed by ".count)))
            } else if words.hasPrefix("rewritten by "),
                case let rest = words.dropFirst("rewritten by ".count),
                let separator = Array(rest.ranges(of: " to ")).last,
                separator.lowerBound > rest.startIndex, separator.upperBound < rest.endIndex
            {
                self = .rewritten(by: String(rest[..<separator.lowerBound]), to: String(rest[separator.upperBound...]))
            } else {
                return nil
            }
        }
    }
}
