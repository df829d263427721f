import ErrorStreaming
import ErrorWatchUI
import Foundation

/// One issue's changes since the last write: its names (for an issue the store has not seen), how many more
/// occurrences (exact), per hour and per version, the sampled occurrences, and a triage decision if one was made.
public struct IssueDelta: Sendable {
    /// The issue's names and severity, as the dashboard knows them now; ``IssueRecord/count`` and the like are
    /// ignored (the store adds ``count``).
    public var record: IssueRecord
    /// The title: the type and the latest message's first line.
    public var title: String
    /// Occurrences counted since the last write.
    public var count: Int
    /// Of them, user-origin.
    public var userCount: Int
    /// Occurrences per hour (hours since 1970).
    public var hours: [Int: Int]
    /// Occurrences per `service.version`, with the first time each was seen in this delta.
    public var versions: [String: (firstSeen: Date, count: Int)]
    /// Environments seen.
    public var environments: [String]
    /// Sampled occurrences, oldest first.
    public var occurrences: [StoredOccurrence]
    /// A triage to store, with what caused it (`resolved`, `regressed in 1.4.0`) and who (`dashboard 1234`).
    public var triage: (IssueTriage, action: String, actor: String)?

    /// A delta for `record`.
    public init(
        record: IssueRecord, title: String, count: Int = 0, userCount: Int = 0, hours: [Int: Int] = [:],
        versions: [String: (firstSeen: Date, count: Int)] = [:], environments: [String] = [],
        occurrences: [StoredOccurrence] = [], triage: (IssueTriage, action: String, actor: String)? = nil
    ) {
        self.record = record
        self.title = title
        self.count = count
        self.userCount = userCount
        self.hours = hours
        self.versions = versions
        self.environments = environments
        self.occurrences = occurrences
        self.triage = triage
    }
}
