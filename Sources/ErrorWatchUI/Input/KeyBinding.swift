/// One row of the key table: the keys, what they do, and how to describe it.
public struct KeyBinding: Sendable, Hashable {
    /// Every key that triggers the command.
    public var keys: [Key]
    /// How the keys are written in help and docs, for example `k ↑`.
    public var keyLabel: String { didSet { footerLabel = Self.firstWord(of: keyLabel) } }
    /// How the footer writes the keys: the first word of ``keyLabel`` (`k`), or all of it when it has no word.
    /// Kept beside the label, as the footer draws it each frame.
    public private(set) var footerLabel: String
    /// What the keys do.
    public var command: KeyCommand
    /// A short phrase for the help overlay and the README; dashboard summaries stay within 23 columns so the
    /// help overlay fits two columns on an 80×24 terminal.
    public var summary: String
    /// A one- or two-word hint for the footer; `nil` keeps the binding out of the footer.
    public var hint: String?

    /// A binding; `keyLabel` defaults to the keys' labels joined by spaces.
    public init(keys: [Key], keyLabel: String? = nil, command: KeyCommand, summary: String, hint: String? = nil) {
        self.keys = keys
        let keyLabel = keyLabel ?? keys.map(\.label).joined(separator: " ")
        self.keyLabel = keyLabel
        self.footerLabel = Self.firstWord(of: keyLabel)
        self.command = command
        self.summary = summary
        self.hint = hint
    }

    /// The first word of a key's label: its first run of characters other than blanks, or the whole label when it
    /// has none (a label of blanks).
    static func firstWord(of label: String) -> String {
        let start = label.firstIndex { $0 != " " } ?? label.startIndex
        let word = label[start...].prefix { $0 != " " }
        return word.isEmpty ? label : String(word)
    }
}
