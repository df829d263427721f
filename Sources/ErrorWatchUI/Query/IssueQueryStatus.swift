/// What an `is:` query term asks of an issue's triage.
public enum IssueQueryStatus: String, Sendable, Hashable, CaseIterable {
    /// First seen within a day and still open.
    case new
    /// Resolved, then seen again.
    case regressed
    /// Resolved (in any way).
    case resolved
    /// Ignored.
    case ignored
    /// Open: unresolved or regressed.
    case unresolved
}
