/// How a named status is doing, which picks its glyph and colour on a dashboard: a producer's `login`, a
/// server's `reconciler`, a source the dashboard reads.
///
/// One vocabulary for the whole house: the wire's `status.health` member, the dashboard's status and source rows,
/// and the demo's flows all use this type, so no layer bridges between look-alike enums. On the wire it is written
/// in lower case (its raw value) and read case-insensitively with ``init(wireName:)``; a status line without
/// `status.health` is ``ok``.
///
/// ```swift
/// StatusHealth(wireName: "Degraded")   // .degraded
/// StatusHealth.failing.rawValue        // "failing"
/// ```
public enum StatusHealth: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Working as intended.
    case ok
    /// Working, but worse than it should (slow, retrying, partly failing).
    case degraded
    /// Not doing its work.
    case failing
    /// Healthy, with nothing to do (stopped on purpose, waiting for work).
    case idle

    /// Parses a wire name case-insensitively: `ok`, `degraded`, `failing`, `idle`.
    ///
    /// - Parameter wireName: The member's text as a producer wrote it.
    public init?(wireName: String) {
        self.init(rawValue: wireName.lowercased())
    }

    /// The lowercase name, as written on the wire: `"degraded"`.
    public var description: String { rawValue }
}
