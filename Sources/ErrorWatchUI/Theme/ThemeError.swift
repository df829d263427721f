/// A problem with a theme file: where it is (file; line and column for malformed JSON; key for a bad entry)
/// and what is wrong.
public struct ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The theme file's path as given.
    public var file: String
    /// 1-based line of a JSON syntax error.
    public var line: Int?
    /// 1-based column (in characters) of a JSON syntax error.
    public var column: Int?
    /// The offending key, dotted: `roles.severityError.fg`.
    public var key: String?
    /// What is wrong, for a person.
    public var message: String

    /// A theme problem.
    public init(file: String, line: Int? = nil, column: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `Themes/bad.json:3:5: malformed JSON: …` or `Themes/odd.json: roles.blurple: unknown role`.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(place): " + (key.map { "\($0): " } ?? "") + message
    }
}
