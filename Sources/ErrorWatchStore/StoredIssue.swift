import ErrorWatchUI
import Foundation

/// An issue as the store has it, for `errorwatch issues`: the record (with its store id, triage, versions and
/// environments), its title and, when asked for, its latest occurrences and triage history.
public struct StoredIssue: Sendable {
    /// The store's number for it.
    public var id: Int64
    /// Its summary.
    public var record: IssueRecord
    /// The type and the first line of its latest message.
    public var title: String
    /// Its latest occurrences, newest first (only when asked for).
    public var occurrences: [StoredOccurrence]
    /// Its triage history, oldest first: when, what, who (only when asked for).
    public var history: [(at: Date, action: String, actor: String)]

    /// A stored issue.
    public init(
        id: Int64, record: IssueRecord, title: String, occurrences: [StoredOccurrence] = [],
        history: [(at: Date, action: String, actor: String)] = []
    ) {
        self.id = id
        self.record = record
        self.title = title
        self.occurrences = occurrences
        self.history = history
    }
}
