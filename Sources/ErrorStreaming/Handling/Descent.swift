/// The record of one descent of an ``ErrorHandler`` tree: the error the next node sees, the names of the nodes
/// whose action ran, and what became of the error. A pure value; the tree feeds it each action's result.
struct Descent: Sendable {
    /// The error the next node's action sees: the thrown one, or the last rewrite of it.
    private(set) var current: any Error
    /// The names of the nodes whose action ran, root side first.
    private(set) var path: [String] = []
    /// The node whose action returned, once one has.
    private var consumer: String?
    /// The last node that threw a different error than it was given, and that error's short type name.
    private var rewrite: (node: String, type: String)?

    init(error: any Error) {
        self.current = error
    }

    /// Whether some node consumed the error (what `finally` is told).
    var handled: Bool { consumer != nil }

    /// How the descent ended (see ``HandlingOutcome`` for the precedence).
    var outcome: HandlingOutcome {
        if let rewrite { return .rewritten(by: rewrite.node, to: rewrite.type) }
        if let consumer { return .consumed(by: consumer) }
        return path.isEmpty ? .unhandled : .passed
    }

    /// The named node's action returned.
    mutating func consumed(by node: String) {
        path.append(node)
        consumer = node
    }

    /// The named node's action threw `error`: the nodes below see it instead.
    mutating func threw(_ error: any Error, at node: String) {
        path.append(node)
        if !Self.isSame(error, current) {
            rewrite = (node, String(describing: type(of: error)))
        }
        current = error
    }

    /// Same type and, for an `Equatable` type, equal. Errors of one type the tree cannot compare count as the same.
    static func isSame(_ lhs: any Error, _ rhs: any Error) -> Bool {
        guard ObjectIdentifier(type(of: lhs)) == ObjectIdentifier(type(of: rhs)) else { return false }
        // Through `Any`: with some sets of types in the module the compiler wrongly warns that `any Error` to
        // `any Equatable` always succeeds; the cast from `Any` asks the same question of the value's dynamic type.
        guard let comparable = (lhs as Any) as? any Equatable else { return true }
        return comparable.isEqual(to: rhs)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Error) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
