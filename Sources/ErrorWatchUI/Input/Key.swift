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

/// A command an attached app offers (see ``AttachedApp``): which app, and the app's own name for the command.
/// The dashboard does not interpret it; the runtime hands it back to the app (effect `.appCommand`).
public struct AppCommand: Sendable, Hashable {
    /// The attached app's name, for example `demo`.
    public var app: String
    /// The command's identifier in the app's own vocabulary, for example `serverErrorBurst`.
    public var id: String

    /// A command `id` of the app named `app`.
    public init(app: String, id: String) {
        self.app = app
        self.id = id
    }
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
    /// Enter: opens the selected alert, issue or Logs line in a detail view.
    case openDetail
    /// `v`: switches the Errors pane between Alerts and Issues.
    case toggleErrorsView
    /// `O`: cycles the Issues view's order.
    case cycleIssueOrder
    /// `W`: saves the kept events that match the filters to an NDJSON file.
    case saveMatching
}

/// What a binding does: a dashboard command, or a command of an attached app.
public enum KeyCommand: Sendable, Hashable {
    case dashboard(DashboardCommand)
    case app(AppCommand)
}
