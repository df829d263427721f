import DequeModule
import OrderedCollections
import Foundation

/// The panes, in focus order. `Sources` is shown (and focusable) only while producers are watched from outside.
public enum Pane: String, Sendable, Hashable, CaseIterable {
    case errors = "Errors"
    case logs = "Logs"
    case metrics = "Metrics"
    case status = "Status"
    case sources = "Sources"

    /// The title drawn in the pane's border, exactly `Errors`, `Logs`, `Metrics`, `Status`, `Sources`.
    public var title: String { rawValue }
}

/// What the Errors pane lists.
public enum ErrorsView: String, Sendable, Hashable {
    /// What users were told: coalesced, user-origin alerts.
    case alerts = "Alerts"
    /// Every error, background included, grouped by fingerprint.
    case issues = "Issues"
}

/// How the Issues view is sorted.
public enum IssueOrder: String, Sendable, Hashable, CaseIterable {
    /// Most recently seen first.
    case lastSeen = "last seen"
    /// Most frequent first.
    case count
}

/// What a detail view shows.
public enum DetailTarget: Sendable, Hashable {
    /// One event (a Logs line or an occurrence), by sequence number.
    case event(UInt64)
    /// A coalesced alert, by fingerprint.
    case alert(String)
    /// An issue, by fingerprint.
    case issue(String)
}

/// Everything the dashboard shows, as plain values. Only ``DashboardReducer`` changes it; ``Dashboard/render(_:)``
/// draws it. It holds no references to services, clocks or terminals.
///
/// ```swift
/// var state = DashboardState(width: 120, height: 40, now: start, themes: catalog.themes, colorDepth: .colors256)
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("p")))
/// let frame = Dashboard.render(state)
/// ```
public struct DashboardState: Sendable, Equatable {
    // MARK: Terminal and clock

    /// Terminal columns.
    public var width: Int
    /// Terminal rows.
    public var height: Int
    /// The time of the last `.tick` (or the time given at creation); ages and uptime are relative to it.
    public var now: Date
    /// When the dashboard started; the header's uptime counts from it.
    public var startedAt: Date
    /// Colours the terminal can show; `.monochrome` under `NO_COLOR` (decided by the caller).
    public var colorDepth: ColorDepth
    /// Whether Unicode glyphs (box drawing, braille sparkline) may be used; the caller sets it from the locale.
    public var unicode: Bool

    // MARK: Content

    /// Recent events and log lines for the Logs pane, oldest first, at most ``logCapacity``.
    public var logs: Deque<DashboardEvent> = []
    /// The lines of ``logs`` that pass the filters, oldest first, kept up to date by the reducer as lines arrive
    /// and filters change, so drawing and scrolling a filtered view costs the rows shown, not the history.
    /// Empty while nothing filters.
    public internal(set) var filteredLogs: Deque<DashboardEvent> = []
    /// How many Logs lines are kept; older ones are dropped.
    public let logCapacity: Int
    /// Active alerts for the Errors pane, most recently seen first, at most ``alertCapacity``.
    public var alerts: Deque<AlertRecord> = []
    /// How many alerts are kept.
    public let alertCapacity: Int
    /// The latest metrics sample.
    public var metrics: MetricsSnapshot = .empty
    /// Named statuses (latest per service and name) in the order they first appeared.
    public var statuses: [StatusEntry] = []
    /// Apps attached inside the dashboard's process, in the order they attached.
    public var apps: [AttachedApp] = []
    /// Every error grouped by fingerprint, counted exactly upstream; the Issues view sorts them.
    public var issues: [IssueRecord] = []
    /// How the handler tree dealt with recent errors, by sequence number, oldest report first (at most
    /// ``logCapacity`` kept).
    public var handling: OrderedDictionary<UInt64, HandlingSummary> = [:]
    /// The number the next log line without one gets: log lines are numbered from 2⁶³ up, so they never collide
    /// with the stream's sequence numbers and can be selected and opened like errors.
    var nextLogLineNumber: UInt64 = 1 << 63
    /// Producers watched from outside the process, in the order they appeared: every live one and the most
    /// recent ones that ended.
    public var sources: [SourceStatus] = []
    /// Ended sources no longer listed, counted exactly.
    public var forgottenSources = 0

    // MARK: Filters and view

    /// Error types shown (matched against `typeName`); empty means all.
    public var typeFilter: Set<String> = [] {
        didSet { if typeFilter != oldValue { refilterLogs() } }
    }
    /// The query Logs, Alerts and Issues must match (`/`); the empty query matches everything.
    public var query: Query = .empty {
        didSet { if query != oldValue { refilterLogs() } }
    }
    /// The query's text. Setting a text that does not parse leaves the query as it was.
    public var textFilter: String {
        get { query.text }
        set { if case .success(let parsed) = Query.parse(newValue) { query = parsed } }
    }
    /// Whether a query is being typed (after `/`).
    public var isEditingFilter = false
    /// The query being typed; it replaces ``query`` on `Enter` if it parses.
    public var queryDraft = ""
    /// Why the typed query did not parse, with the position, shown in the prompt; the previous query stays.
    public var queryError: QueryError?
    /// The focused pane (bold border); Tab and Shift-Tab cycle it.
    public var focus: Pane = .errors
    /// Rows of Logs hidden below the view: 0 follows the tail.
    public var logScroll = 0
    /// First alert row shown in Errors.
    public var errorScroll = 0
    /// The Logs line selected with `e`/`E`, by sequence number.
    public var selectedSequence: UInt64?
    /// What the Errors pane lists: alerts (what users were told) or issues (every error, grouped).
    public var errorsView: ErrorsView = .alerts
    /// How the Issues view is sorted (`O` cycles).
    public var issueOrder: IssueOrder = .lastSeen
    /// The selected alert or issue, by fingerprint; `nil` selects the newest (first) row, following it.
    public var selectedFingerprint: String?
    /// The detail views open, innermost last; the last one fills the dashboard's body. `Esc` or `q` closes it.
    public var detailStack: [DetailTarget] = []
    /// Rows of the open detail view scrolled past.
    public var detailScroll = 0
    /// In a group's detail view, the selected occurrence (0 is the newest).
    public var detailOccurrence = 0
    /// Whether the Logs view is frozen; what arrives is still kept and counted.
    public var isPaused = false
    /// Events that arrived since the pause began (`PAUSED +N`).
    public var arrivedWhilePaused = 0
    /// Whether the `?` overlay is shown.
    public var showsHelp = false

    // MARK: Theme and status

    /// Themes cycled by `t`; never empty.
    public var themes: [Theme]
    /// The current theme's index in `themes`.
    public var themeIndex = 0
    /// A one-line message for the footer: theme problems, the result of a command. Cleared by the first tick
    /// ``statusMessageDuration`` seconds after it was set.
    public var statusMessage: String?
    /// When ``statusMessage`` was last set (the state's `now` at that moment).
    public var statusMessageSetAt: Date?
    /// How long a status message stays in the footer.
    public static let statusMessageDuration: TimeInterval = 5
    /// How many issues are kept (the runtime sends the most recent).
    public static let issueCapacity = 1_000
    /// How many distinct statuses are kept; later new names are ignored (producers cannot grow the state).
    public static let statusCapacity = 64

    // MARK: Loop bookkeeping

    /// Increases whenever something visible changed; the runtime redraws only when it differs from the last frame's.
    public var generation: UInt64 = 0
    /// Set by `q`; the runtime also receives the `.quit` effect.
    public var quitRequested = false

    /// A fresh dashboard at `now`. `themes` falls back to the built-in default when empty.
    public init(
        width: Int = 80, height: Int = 24, now: Date, themes: [Theme] = [.default], colorDepth: ColorDepth = .colors256,
        unicode: Bool = true, logCapacity: Int = 2_000, alertCapacity: Int = 200
    ) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.now = now
        self.startedAt = now
        self.themes = themes.isEmpty ? [.default] : themes
        self.colorDepth = colorDepth
        self.unicode = unicode
        self.logCapacity = max(1, logCapacity)
        self.alertCapacity = max(1, alertCapacity)
    }

    /// The theme in use.
    public var theme: Theme { themes[min(max(0, themeIndex), themes.count - 1)] }

    /// The keys in force: the dashboard's table, then each attached app's bindings. It drives the reducer, the
    /// footer and the help overlay.
    public var keymap: Keymap {
        apps.isEmpty ? .standard : Keymap(bindings: Keymap.standard.bindings + apps.flatMap(\.bindings))
    }

    /// The minimum terminal size; below it the "terminal too small" screen is shown.
    public static let minimumSize = (width: 40, height: 10)

    /// Whether a Logs line passes the type filter and the query.
    public func matches(_ event: DashboardEvent) -> Bool {
        if !typeFilter.isEmpty, !typeFilter.contains(event.typeName) { return false }
        return query.isEmpty || query.matches(event.querySubject)
    }

    /// Whether an alert passes the type filter and the query.
    public func matches(_ alert: AlertRecord) -> Bool {
        if !typeFilter.isEmpty, !alert.typeName.isEmpty, !typeFilter.contains(alert.typeName) { return false }
        return query.isEmpty || query.matches(alert.querySubject)
    }

    /// Whether any filter is active.
    public var isFiltering: Bool { !typeFilter.isEmpty || !query.isEmpty }

    /// The Logs lines that pass the filters, oldest first: ``filteredLogs`` while filtering, else ``logs``.
    public var matchingLogs: Deque<DashboardEvent> { isFiltering ? filteredLogs : logs }

    /// Rebuilds ``filteredLogs`` after the filters changed: the one pass over the history a filter change costs.
    mutating func refilterLogs() {
        filteredLogs = isFiltering ? Deque(logs.filter { matches($0) }) : []
    }

    /// The detail view shown, if any.
    public var detail: DetailTarget? { detailStack.last }

    /// Issues in the chosen order, filtered.
    public var visibleIssues: [IssueRecord] {
        let filtered = issues.filter { matches($0) }
        switch issueOrder {
        case .lastSeen:
            return filtered.sorted { ($0.lastSeen, $0.count, $1.fingerprint) > ($1.lastSeen, $1.count, $0.fingerprint) }
        case .count:
            return filtered.sorted { ($0.count, $0.lastSeen, $1.fingerprint) > ($1.count, $1.lastSeen, $0.fingerprint) }
        }
    }

    /// Whether an issue passes the type filter and the query.
    public func matches(_ issue: IssueRecord) -> Bool {
        if !typeFilter.isEmpty, !typeFilter.contains(issue.typeName) { return false }
        return query.isEmpty || query.matches(issue.querySubject)
    }

    /// Alerts not yet expired, most recent first, filtered. Alerts fade after ``alertFadeAfter`` seconds without a
    /// repeat and are dropped by the reducer after ``alertExpiresAfter``.
    public var visibleAlerts: [AlertRecord] { alerts.filter { matches($0) } }

    /// Seconds after its last occurrence when an alert is drawn dimmed.
    public static let alertFadeAfter: TimeInterval = 60
    /// Seconds after its last occurrence when an alert is removed.
    public static let alertExpiresAfter: TimeInterval = 300
}
