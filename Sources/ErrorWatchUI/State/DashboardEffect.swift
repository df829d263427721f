/// Work for the runtime to do after a state change; the reducer itself does none.
public enum DashboardEffect: Sendable, Hashable {
    /// Restore the terminal and exit.
    case quit
    /// Repaint every cell (Ctrl-L), not just the diff.
    case redrawAll
    /// Hand a command to the attached app that offered it.
    case appCommand(AppCommand)
    /// Save these events (everything kept that matches the filters, oldest first) to a file.
    case export([DashboardEvent])
    /// Triage the issue with this fingerprint (the tracker and the store take it; the state already shows it).
    case triage(fingerprint: String, IssueTriageAction)
    /// A trace was opened from the Traces view: send its spans (and their changes from now on).
    case traceOpened(String)
    /// A metric's chart was opened from the Metrics pane: send that series' chart (``MetricsSnapshot/chart``) with
    /// every sample from now on.
    case metricOpened(String)
}
