extension Key {
    /// Parses one key as written on the command line (`errorwatch render --keys "l i ? Esc q"`): a single
    /// character, or a name: `Space`, `Tab`, `Shift-Tab`, `Esc`, `Enter`, `Backspace`, `Delete`, `Up`, `Down`,
    /// `Left`, `Right`, `PgUp`, `PgDn`, `Home`, `End`, `F1`…`F12`, `Ctrl-L` (also `C-l`). Names ignore case.
    public init?(token: String) {
        if token.count == 1, let character = token.first {
            self = .character(character)
            return
        }
        let lower = token.lowercased()
        switch lower {
        case "space": self = .character(" ")
        case "tab": self = .tab
        case "shift-tab", "s-tab", "backtab": self = .backTab
        case "esc", "escape": self = .escape
        case "enter", "return": self = .enter
        case "backspace", "bs": self = .backspace
        case "delete", "del": self = .delete
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "pgup", "pageup": self = .pageUp
        case "pgdn", "pagedown": self = .pageDown
        case "home": self = .home
        case "end": self = .end
        default:
            if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) {
                self = .function(n)
            } else if let letter = Self.controlLetter(lower) {
                self = .ctrl(letter)
            } else {
                return nil
            }
        }
    }

    private static func controlLetter(_ lower: String) -> Character? {
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            if rest.count == 1, let c = rest.first, c.isASCII, c.isLetter { return c }
        }
        return nil
    }

    /// Parses a whitespace-separated list of keys; the error names the first token that is not a key.
    public static func parseSequence(_ text: String) -> Result<[Key], KeyParseError> {
        var keys: [Key] = []
        for token in text.split(whereSeparator: \.isWhitespace) {
            guard let key = Key(token: String(token)) else { return .failure(KeyParseError(token: String(token))) }
            keys.append(key)
        }
        return .success(keys)
    }
}

