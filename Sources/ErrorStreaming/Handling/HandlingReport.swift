/// What an ``ErrorHandler`` tree did with one error: the nodes whose action ran, and how the descent ended.
///
/// A root created with ``ErrorHandler/init(forwardingTo:name:file:line:)`` adds every error thrown into its tree
/// to the stream, then reports the outcome to the same stream with ``sequence`` set to the sequence number the
/// event got there. A listener joins the two by sequence:
///
/// ```swift
/// let reports = stream.handlingReports()
/// for await report in reports {
///     print(report.sequence, report.path.joined(separator: " › "), report.outcome, report.handled)
///     // 7 app › logged in  consumed by logged in  true
/// }
/// ```
public struct HandlingReport: Sendable, Hashable {
    /// The ``ErrorEvent/sequence`` of the error's event in the stream the root forwarded it to.
    public var sequence: UInt64
    /// The names of the nodes whose action ran, root side first (see ``ErrorHandler/name``).
    public var path: [String]
    /// How the descent ended.
    public var outcome: HandlingOutcome
    /// What `finally` was told: whether some node consumed the error.
    public var handled: Bool

    /// Creates a report; the handler tree creates them, tests and decoders may too.
    public init(sequence: UInt64, path: [String], outcome: HandlingOutcome, handled: Bool) {
        self.sequence = sequence
        self.path = path
        self.outcome = outcome
        self.handled = handled
    }
}
