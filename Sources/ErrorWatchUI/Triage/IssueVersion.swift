import Foundation

/// One `service.version` an issue was seen in: when first, and how often.
public struct IssueVersion: Sendable, Hashable {
    /// The version as the producer sent it.
    public var version: String
    /// The first occurrence in this version.
    public var firstSeen: Date
    /// Occurrences in this version.
    public var count: Int

    /// A version seen.
    public init(version: String, firstSeen: Date, count: Int) {
        self.version = version
        self.firstSeen = firstSeen
        self.count = count
    }

    /// The newest of `versions`: the highest semantic version when any parse, else the one first seen last.
    public static func newest(in versions: [IssueVersion]) -> IssueVersion? {
        let parsed = versions.compactMap { v in SemanticVersion(v.version).map { (v, $0) } }
        if let best = parsed.max(by: { ($0.1, $0.0.firstSeen) < ($1.1, $1.0.firstSeen) }) { return best.0 }
        return versions.max { ($0.firstSeen, $0.version) < ($1.firstSeen, $1.version) }
    }

    /// Whether `version` (first seen at `firstSeen`) is newer than `baseline` (the newest version when an issue was
    /// resolved at `resolvedAt`): by semantic version when both parse, else by first-seen order (a version first
    /// seen after the resolution is newer).
    public static func isNewer(_ version: String, firstSeen: Date, than baseline: String, resolvedAt: Date) -> Bool {
        if let a = SemanticVersion(version), let b = SemanticVersion(baseline) { return a > b }
        return firstSeen > resolvedAt
    }
}
