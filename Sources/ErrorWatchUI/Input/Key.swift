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

/// A failure the demo app can be told to inject, or a repair. The runtime performs them (effect `.trigger`).
public enum DemoTrigger: String, Sendable, Hashable, CaseIterable {
    case invalidCredentials
    case toggleOffline
    case toggleSlowNetwork
    case sessionExpired
    case serverErrorBurst
    case softwareBug
    case errorStorm
    case logInNow
    case toggleAutoLogin
    case recoverAll
}

/// Something the dashboard itself does in answer to a key.
public enum DashboardCommand: Sendable, Hashable {
    case quit
    case toggleHelp
    case focusNext
    case focusPrevious
    case scrollUp
    case scrollDown
    case pageUp
    case pageDown
    case scrollTop
    case scrollBottom
    case beginTextFilter
    /// Esc: closes help, or clears the text filter.
    case cancel
    /// 1…9: the digit is taken from the key.
    case toggleTypeFilter
    case clearTypeFilters
    case togglePause
    case nextError
    case previousError
    case cycleTheme
    case redraw
}

/// What a binding does: a dashboard command or a demo trigger.
public enum KeyCommand: Sendable, Hashable {
    case dashboard(DashboardCommand)
    case demo(DemoTrigger)
}
