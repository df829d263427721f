import ErrorStreaming
import ErrorWatchUI
import Foundation

/// What one write carries: for each issue counted since the last write, what changed, summarised (counts exact,
/// occurrences sampled), and triage decisions. Written in one transaction by ``IssueStore/write(_:)``.
public struct StoreBatch: Sendable {
    /// The issues, one delta each.
    public var deltas: [IssueDelta]

    /// A batch of `deltas`.
    public init(deltas: [IssueDelta] = []) { self.deltas = deltas }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { deltas.isEmpty }
}
