import DequeModule
import Foundation

/// Everything the dashboard shows, as plain values, in eight slices: ``screen``, ``logs``, ``errors``, ``filter``,
/// ``detail``, ``feeds``, ``traces`` and ``patterns``. Each slice has its own small `Action` and its own `reduce`,
/// and writes only its own fields; the one root ``DashboardReducer`` translates each ``DashboardAction`` (and each
/// key, through the keymap) into the actions of the slices it concerns (The Composable Architecture's `Scope`).
/// Fields are readable everywhere; ``Dashboard/render(_:)`` draws it. It holds no references to services, clocks
/// or terminals.
///
/// ```swift
/// var state = DashboardState(width: 120, height: 40, now: start, themes: catalog.themes, colorDepth: .colors256)
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("p")))
/// state.logs.isPaused   // true
/// let frame = Dashboard.render(state)
/// ```
public struct DashboardState: Sendable, Equatable {
    /// The terminal, the clock, the theme, the status line, focus and help.
    public internal(set) var screen: ScreenState
    /// The Logs pane's lines, scroll, selection and pause, and recent handling reports.
    public internal(set) var logs: LogsState
    /// Alerts and issues, and the Errors pane's view of them.
    public internal(set) var errors: ErrorsState
    /// The type filter and the query.
    public internal(set) var filter = FilterState()
    /// The detail views open.
    public internal(set) var detail = DetailState()
    /// Metrics, statuses, attached apps and external sources.
    public internal(set) var feeds = FeedsState()
    /// The traces errors belong to, as the runtime's trace store last sent them.
    public internal(set) var traces = TracesState()
    /// The templates of every line received, for the Patterns view.
    public internal(set) var patterns: PatternsState

    // MARK: Loop bookkeeping

    /// Increases whenever something visible changed; the runtime redraws only when it differs from the last frame's.
    public internal(set) var generation: UInt64 = 0
    /// Set by `q`; the runtime also receives the `.quit` effect.
    public internal(set) var quitRequested = false

    // MARK: Limits

    /// How long a status message stays in the footer.
    public static let statusMessageDuration: TimeInterval = 5
    /// How many issues are kept (the runtime sends the most recent).
    public static let issueCapacity = 1_000
    /// How many distinct statuses are kept; later new names are ignored (producers cannot grow the state).
    public static let statusCapacity = 64
    /// Seconds after its last occurrence when an alert is drawn dimmed.
    public static let alertFadeAfter: TimeInterval = 60
    /// Seconds after its last occurrence when an alert is removed.
    public static let alertExpiresAfter: TimeInterval = 300
    /// The minimum terminal size; below it the "terminal too small" screen is shown.
    public static let minimumSize = (width: 40, height: 10)
    /// The largest screen drawn: a bigger terminal shows the dashboard in its top-left 800 × 250 cells. What a
    /// frame costs (two buffers, the diff, the backend's own copies) grows with the cells, so without a cap a
    /// resize to 2,000 × 500 took 191 MB and slowed keys to 218 ms; 200,000 cells is more than a 4K screen at a
    /// readable font holds.
    public static let maximumSize = (width: 800, height: 250)

    /// A fresh dashboard at `now`. `themes` falls back to the built-in default when empty.
    public init(
        width: Int = 80, height: Int = 24, now: Date, themes: [Theme] = [.default], colorDepth: ColorDepth = .colors256,
        unicode: Bool = true, logCapacity: Int = 2_000, alertCapacity: Int = 200,
        patternCapacity: Int = PatternsState.defaultCapacity
    ) {
        patterns = PatternsState(capacity: patternCapacity)
        screen = ScreenState(
            width: width, height: height, now: now, themes: themes, colorDepth: colorDepth, unicode: unicode)
        logs = LogsState(capacity: logCapacity)
        errors = ErrorsState(alertCapacity: alertCapacity)
        _ = screen.reduce(.laidOut(Viewport(width: screen.width, height: screen.height, feeds: feeds)))
    }

    /// The keys in force: the dashboard's table, then each attached app's bindings. It drives the reducer, the
    /// footer and the help overlay.
    public var keymap: Keymap {
        feeds.apps.isEmpty ? .standard : Keymap(bindings: Keymap.standard.bindings + feeds.apps.flatMap(\.bindings))
    }

    /// Whether work is spread over frames (re-filtering the Logs history): the loop then sends `.frameStarted`
    /// each frame until it is done.
    public var hasWorkInProgress: Bool { logs.isRefiltering }

    /// The Logs lines that pass the filters, oldest first.
    public var matchingLogs: Deque<DashboardEvent> { logs.matching(filter) }

    /// Alerts not yet expired, most recent first, that pass the filters.
    public var visibleAlerts: [AlertRecord] { errors.visibleAlerts(filter) }

    /// Issues in the chosen order that pass the filters.
    public var visibleIssues: [IssueRecord] { errors.visibleIssues(filter, at: screen.now) }

    /// The query's text (`/` edits it).
    public var textFilter: String { filter.query.text }
}
