/// A `/regex/` term's pattern, compiled once, case-insensitive, matched in linear time, shareable between threads.
///
/// Swift's `Regex` reads the pattern first, so a pattern that does not parse is reported in Swift's words; the
/// matching is done by a ``LinearRegex``, which never backtracks: a query runs on every line of the history on the
/// UI thread, and a backtracking engine lets one pattern (`/(a+)+$/`) hold it for minutes. What only a
/// backtracking engine can do (backreferences, lookaround) is refused with a sentence saying so.
final class QueryRegex: Sendable {
    private let regex: LinearRegex

    /// Compiles `pattern` (with `\/` already turned into `/`); throws Swift's error for a pattern it cannot parse,
    /// and a ``LinearRegex/Unsupported`` for one that needs backtracking.
    init(_ pattern: String) throws {
        _ = try Regex(pattern)
        regex = try LinearRegex(pattern)
    }

    /// Whether the regex matches somewhere in `text`, ignoring case.
    func isFound(in text: String) -> Bool { regex.isFound(in: text) }

    /// The compiled program's instructions: a scalar of text costs at most this many thread steps.
    var programSize: Int { regex.program.count }

    /// The non-empty ranges of `text` the regex matches, in order.
    func ranges(in text: String) -> [Range<String.Index>] { regex.ranges(in: text) }
}
