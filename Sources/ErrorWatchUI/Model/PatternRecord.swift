import ErrorStreaming
import Foundation

/// One template of the Patterns view: the lines (logs and errors) that read alike once their variable parts are
/// masked, with how many there were, at which levels, when, and the most recent ones.
public struct PatternRecord: Sendable, Hashable {
    /// A number unique among the patterns of one dashboard, in order of first appearance.
    public var id: Int
    /// The template's words; `<*>` stands for a word that differs between its lines, `<num>`, `<ip>`… for what
    /// ``TemplateMask`` masked.
    public var tokens: [String] { didSet { template = tokens.joined(separator: " ") } }
    /// The template as text: its words joined by spaces, kept as the words change (each frame draws it).
    public internal(set) var template: String
    /// How many lines it has had.
    public var count: Int
    /// How many of them at each level, indexed by ``ErrorSeverity/rawValue``.
    public var levels: [Int]
    /// When its first and latest lines happened (the lines' own times).
    public var firstSeen: Date
    public var lastSeen: Date
    /// When the dashboard first saw it, for the `new` mark.
    public var discovered: Date
    /// Lines in each whole second since 1970, for the last minute or so.
    public var seconds: [Int: Int]
    /// The sequence numbers of its most recent lines, newest last (at most ``recentLimit``).
    public var recent: [UInt64]
    /// How many sequence numbers ``recent`` keeps.
    public static let recentLimit = 100
    /// The services whose lines it has (the first few), for `service:` queries.
    public var services: [String] = []
    /// The components (loggers) whose lines it has (the first few), for `source:` queries.
    public var sources: [String] = []
    /// The template this one was folded into once a word of it proved variable; `nil` while it is listed.
    public var mergedInto: Int?

    /// The levels it has had, most severe first.
    public var levelsSeen: [ErrorSeverity] {
        ErrorSeverity.allCases.reversed().filter { levels[$0.rawValue] > 0 }
    }

    /// Lines in each of the 60 seconds up to and including `now`'s second, oldest first.
    public func perSecond(endingAt now: Date) -> [Int] {
        let last = Int(now.timeIntervalSince1970.rounded(.down))
        // One pass over the (at most 120) seconds kept costs less than 60 lookups.
        var result = Array(repeating: 0, count: 60)
        for (second, count) in seconds where second > last - 60 && second <= last {
            result[second - (last - 59)] = count
        }
        return result
    }
}
