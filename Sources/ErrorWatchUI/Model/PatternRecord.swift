import ErrorStreaming
import Foundation

/// One template of the Patterns view: the lines (logs and errors) that read alike once their variable parts are
/// masked, with how many there were, at which levels, when, and the most recent ones.
public struct PatternRecord: Sendable, Hashable {
    /// A number unique among the patterns of one dashboard, in order of first appearance.
    public var id: Int
    /// The template's words; `<*>` stands for a word that differs between its lines, `<num>`, `<ip>`… for what
    /// ``TemplateMask`` masked.
    public var tokens: [String] {
        didSet {
            template = tokens.joined(separator: " ")
            templateIsASCII = template.utf8.allSatisfy { $0 < 0x80 }
        }
    }
    /// The template as text: its words joined by spaces, kept as the words change (each frame draws it).
    public private(set) var template: String
    /// Whether ``template`` is all ASCII, kept beside it: each frame's rows are drawn by a faster path when it is.
    public private(set) var templateIsASCII: Bool
    /// How many lines it has had.
    public var count: Int
    /// How many of them at each level, indexed by ``ErrorSeverity/rawValue``.
    public var levels: [Int]
    /// When its first and latest lines happened (the lines' own times).
    public var firstSeen: Date
    public var lastSeen: Date
    /// When the dashboard first saw it, for the `new` mark.
    public var discovered: Date
    /// Lines in each of the ``secondsKept`` whole seconds (since 1970) up to ``latestSecond``: second `s` in slot
    /// `s % secondsKept`. A line more than that before the latest one is counted, not placed in a second.
    public private(set) var secondCounts: [Int]
    /// The latest whole second a line of it happened in.
    public private(set) var latestSecond: Int
    /// How many seconds ``secondCounts`` keeps: the minute a sparkline shows, and as much again for lines whose
    /// clock runs ahead of the dashboard's.
    public static let secondsKept = 128
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

    /// A template of `tokens`, its first line at `time`, discovered by the dashboard at `now`; no lines counted yet.
    init(id: Int, tokens: [String], at time: Date, discovered now: Date) {
        self.id = id
        self.tokens = tokens
        template = tokens.joined(separator: " ")
        templateIsASCII = template.utf8.allSatisfy { $0 < 0x80 }
        count = 0
        levels = Array(repeating: 0, count: ErrorSeverity.allCases.count)
        firstSeen = time
        lastSeen = time
        discovered = now
        secondCounts = Array(repeating: 0, count: Self.secondsKept)
        latestSecond = Self.second(of: time)
        recent = []
    }

    /// Lines in each of the 60 seconds up to and including `now`'s second, oldest first.
    public func perSecond(endingAt now: Date) -> [Int] {
        withPerSecond(endingAt: now) { Array($0) }
    }

    /// Hands `body` ``perSecond(endingAt:)``, counted into memory on the stack (each row of the Patterns view
    /// draws one each frame).
    func withPerSecond<Result>(endingAt now: Date, _ body: (UnsafeBufferPointer<Int>) -> Result) -> Result {
        let last = Self.second(of: now)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 60) { counts in
            for offset in 0..<60 {
                let second = last - 59 + offset
                counts[offset] = lines(inSecond: second)
            }
            return body(UnsafeBufferPointer(counts))
        }
    }

    /// Counts `lines` more in `second`, moving the kept seconds on when it is later than ``latestSecond``.
    mutating func countLines(_ lines: Int, inSecond second: Int) {
        if second > latestSecond {
            // The seconds between the latest and this one had no lines: their slots, last used a window ago, are
            // cleared (all of them when the gap is a window or more).
            var cleared = latestSecond + 1
            while cleared <= second, cleared <= latestSecond + Self.secondsKept {
                secondCounts[Self.slot(cleared)] = 0
                cleared += 1
            }
            latestSecond = second
        }
        guard second > latestSecond - Self.secondsKept else { return }
        secondCounts[Self.slot(second)] += lines
    }

    /// The lines counted in `second`: 0 when none were, or when it is not kept.
    func lines(inSecond second: Int) -> Int {
        second <= latestSecond && second > latestSecond - Self.secondsKept ? secondCounts[Self.slot(second)] : 0
    }

    /// The whole second since 1970 that `time` falls in.
    static func second(of time: Date) -> Int { Int(time.timeIntervalSince1970.rounded(.down)) }

    /// Where second `second` is kept in ``secondCounts`` (seconds before 1970 too).
    private static func slot(_ second: Int) -> Int {
        let slot = second % secondsKept
        return slot < 0 ? slot + secondsKept : slot
    }
}
