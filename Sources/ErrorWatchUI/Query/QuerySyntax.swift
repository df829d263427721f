/// The query syntax in a few rows, for the help overlay and the docs.
///
/// Each `syntax` is at most 18 columns and each `meaning` at most 34, so a row fits one half of the help overlay
/// on an 80-column terminal. The rows are ASCII, for terminals without Unicode.
///
/// ```swift
/// for row in QuerySyntax.lines { print(row.syntax.padding(toLength: 19, withPad: " ", startingAt: 0), row.meaning) }
/// ```
public enum QuerySyntax {
    /// The rows, in the order help shows them.
    public static let lines: [(syntax: String, meaning: String)] = [
        ("word \"a phrase\"", "in type, code, source or message"),
        ("/time.?out/", "regular expression, any case"),
        ("level:warning+", "warning and up (no +: exactly)"),
        ("type:Payment", "type name contains"),
        ("code:N-5", "code starts with"),
        ("source:auth", "source contains (also service:)"),
        ("origin:user", "user or background"),
        ("category:bug", "bug, transient, expected, etc."),
        ("is:regressed", "issue status (new, resolved...)"),
        ("version:latest", "seen in a release (also env:)"),
        ("status:error", "failing traces (or ok; trace:<id>)"),
        ("duration>200ms", "slower traces (also <, >=, <=)"),
        ("a b -c", "a and b, but not c"),
    ]

    /// The rows as a Markdown table, for the docs.
    public static func markdownTable() -> String {
        let rows = lines.map { "| `\($0.syntax)` | \($0.meaning) |" }
        return (["| Query | Matches |", "| --- | --- |"] + rows).joined(separator: "\n") + "\n"
    }
}
