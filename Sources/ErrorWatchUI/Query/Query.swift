/// A parsed filter: terms, all of which must hold, over a ``QuerySubject``.
///
/// Terms are separated by spaces:
/// - `word`, `"a phrase"`: in the type (short or qualified), code, source, service or any text, ignoring case;
/// - `/regex/`: a Swift `Regex`, case-insensitive, over the same fields (`\/` is a slash inside);
/// - `level:warning` (exactly), `level:warning+` (and above), `type:`, `code:` (a prefix), `service:`, `source:`,
///   `origin:user`, `category:transient`; a value may be quoted, `type:"Payment Error"`;
/// - `is:new`, `is:regressed`, `is:resolved`, `is:ignored`, `is:unresolved` (issues only: log lines and alerts
///   pass them), `version:` (`version:latest`: the newest known), `env:`;
/// - `trace:4bf9` (the trace id starts with it); `status:error`, `status:ok` (a span failed, or none did) and
///   `duration>200ms`, `duration<=1s` (also `<`, `>=`; units ns, us, ms, s, m, h) about traces only: other rows
///   pass them;
/// - `-term` excludes what the term matches.
///
/// The empty text is the empty query, which matches everything. ``QuerySyntax`` has the short table for help.
///
/// ```swift
/// let query = try Query.parse("level:warning+ -origin:background timeout").get()
/// let subject = QuerySubject(level: .error, type: "NetworkError", origin: .user, texts: ["Request timeout"])
/// query.matches(subject)                   // true
/// query.highlights(in: "Request timeout")  // the range of "timeout"
/// ```
///
/// Parsing does the work once: needles are lowercased and regexes compiled, and terms are put cheapest first. Two
/// queries are equal when their texts are.
public struct Query: Sendable, Hashable {
    /// The text the query was parsed from, as typed.
    public let text: String
    /// The clauses, cheapest first, so that a failing enum or short-field term spares the text searches.
    let clauses: [QueryClause]

    private init(text: String, clauses: [QueryClause]) {
        self.text = text
        self.clauses = clauses.enumerated()
            .sorted { ($0.element.term.cost, $0.offset) < ($1.element.term.cost, $1.offset) }
            .map(\.element)
    }

    /// The query of the empty text, which matches everything.
    public static let empty = Query(text: "", clauses: [])

    /// Parses `text`, or says what is wrong with it and where.
    ///
    /// ```swift
    /// Query.parse("type:")   // .failure(at 5: empty value for "type:")
    /// ```
    public static func parse(_ text: String) -> Result<Query, QueryError> {
        Result { () throws(QueryError) in Query(text: text, clauses: try QueryParser.parse(text)) }
    }

    /// Whether the query has no terms (its text is empty or blank), so that it matches everything.
    public var isEmpty: Bool { clauses.isEmpty }

    /// Whether `subject` satisfies every term: each term matches, and each `-term` does not.
    ///
    /// Field terms cost nanoseconds and words or phrases well under a microsecond per subject (about 10 ms for
    /// 100,000 lines), but a regex costs Swift's `Regex` several microseconds per field. A caller that filters many
    /// lines with a regex query should remember each line's result while the query is unchanged.
    public func matches(_ subject: QuerySubject) -> Bool {
        for clause in clauses
        where clause.term.applies(to: subject) && clause.term.matches(subject) == clause.isExcluded {
            return false
        }
        return true
    }

    /// Whether the query asks about triage (`is:`), so the Issues view shows resolved and ignored issues too (it
    /// hides them otherwise).
    public var mentionsStatus: Bool {
        clauses.contains { if case .status = $0.term { true } else { false } }
    }

    /// The ranges of `text` matched by the query's words, phrases and regexes (not by fields or excluded terms),
    /// sorted, with overlapping and touching ranges merged: what to highlight when `text` is drawn.
    public func highlights(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        for clause in clauses where !clause.isExcluded { ranges += clause.term.highlights(in: text) }
        guard ranges.count > 1 else { return ranges }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = [ranges[0]]
        for range in ranges.dropFirst() {
            let last = merged[merged.count - 1]
            if range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// What matching costs per scalar of text, estimated in nanoseconds of a release build, so a reducer can bound
    /// its work without a clock: about 10 for the words and fields, and 60 per instruction of each regex (the
    /// Pike VM steps every live state on every scalar: `/(a+)+$/`, 12 instructions, measured 750 ns a scalar).
    var scanCost: Int {
        var cost = 10
        for clause in clauses { if case .regex(let regex) = clause.term { cost += 60 * regex.programSize } }
        return cost
    }

    /// Whether two queries have the same text (and so the same terms).
    public static func == (lhs: Query, rhs: Query) -> Bool { lhs.text == rhs.text }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
