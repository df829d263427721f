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
    /// `R`, `N`, `I`, `Z`, `c`, `U`: triages the selected (or opened) issue.
    case triage(IssueTriageAction)
}
