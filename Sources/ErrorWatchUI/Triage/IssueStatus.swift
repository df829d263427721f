/// Where an issue stands in triage. Stored by its raw value (`docs/store.md`), so the names are part of the format.
public enum IssueStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Open: nobody resolved or ignored it (the state of every issue seen for the first time).
    case unresolved
    /// Resolved, then seen again (in a release at least as new, when it was resolved in the next release).
    case regressed
    /// Marked fixed.
    case resolved
    /// Hidden as noise: forever, for a time, or until a number of further occurrences.
    case ignored

    /// Whether the issue still wants attention (unresolved or regressed), so the Issues view shows it by default.
    public var isOpen: Bool { self == .unresolved || self == .regressed }
}
