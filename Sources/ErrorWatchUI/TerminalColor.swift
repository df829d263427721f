/// A colour as the terminal will show it, already reduced to what the terminal supports.
public enum TerminalColor: Sendable, Hashable {
    /// The terminal's own default foreground or background.
    case `default`
    /// A palette index: 0–7 the basic ANSI colours, 8–15 their bright variants, 16–255 the xterm cube and greys.
    case indexed(UInt8)
    /// A 24-bit colour, only produced for truecolor terminals.
    case rgb(UInt8, UInt8, UInt8)
}
