/// A key press, as the backend decoded it.
public enum Key: Sendable, Hashable {
    /// A printable character, already case-sensitive: `"q"`, `"S"`, `" "`.
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab
    /// Shift-Tab.
    case backTab
    case escape, enter, backspace, delete
    /// Control plus a letter, lowercase: `.ctrl("l")`.
    case ctrl(Character)
    /// F1…F12.
    case function(Int)

    /// How the key is written in hints, help and docs: `q`, `Tab`, `Shift-Tab`, `Ctrl-L`, `Space`.
    public var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .enter: "Enter"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .ctrl(let c): "Ctrl-\(c.uppercased())"
        case .function(let n): "F\(n)"
        }
    }
}

