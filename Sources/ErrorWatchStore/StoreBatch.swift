import ErrorStreaming
import ErrorWatchUI
import Foundation

/// What one write carries: for each issue counted since the last write, what changed, summarised (counts exact,
/// occurrences sampled), and triage decisions; and how far each file read is counted. Written in one transaction by
/// ``IssueStore/write(_:)``, so a file's mark never runs ahead of the counts of its lines.
public struct StoreBatch: Sendable {
    /// The issues, one delta each.
    public var deltas: [IssueDelta]
    /// How far files are counted, the latest per file.
    public var fileMarks: [FileMark]

    /// A batch of `deltas` and `fileMarks`.
    public init(deltas: [IssueDelta] = [], fileMarks: [FileMark] = []) {
        self.deltas = deltas
        self.fileMarks = fileMarks
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { deltas.isEmpty && fileMarks.isEmpty }
}
