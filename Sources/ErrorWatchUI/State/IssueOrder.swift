/// How the Issues view is sorted.
public enum IssueOrder: String, Sendable, Hashable, CaseIterable {
    /// Most recently seen first.
    case lastSeen = "last seen"
    /// Most frequent first.
    case count
}
