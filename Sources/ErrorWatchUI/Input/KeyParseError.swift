/// A token in a key list that is not a key.
public struct KeyParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var token: String
    public var description: String {
        "\"\(token)\" is not a key (use a character, or a name such as Space, Tab, Esc, Enter, Up, PgDn, F1, Ctrl-L)"
    }
}
