/// One row of the key table: the keys, what they do, and how to describe it.
public struct KeyBinding: Sendable, Hashable {
    /// Every key that triggers the command.
    public var keys: [Key]
    /// How the keys are written in help and docs, for example `k ↑`.
    public var keyLabel: String
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
        self.keyLabel = keyLabel ?? keys.map(\.label).joined(separator: " ")
        self.command = command
        self.summary = summary
        self.hint = hint
    }
}
