import Foundation

/// The screen slice of ``DashboardState``: the terminal's size and abilities, the clock, the theme, the status
/// line, the focused pane, the help overlay, and the page sizes the keys need. Changed only by ``reduce(_:)``, with
/// the actions of ``Action``: it sees nothing of the other slices.
///
/// ```swift
/// var screen = ScreenState(width: 80, height: 24, now: start, themes: [.default], colorDepth: .colors256)
/// _ = screen.reduce(.resized(width: 120, height: 40))   // true: the size changed
/// ```
public struct ScreenState: Sendable, Equatable {
    /// Terminal columns drawn, at most ``DashboardState/maximumSize``.
    public private(set) var width: Int
    /// Terminal rows drawn, at most ``DashboardState/maximumSize``.
    public private(set) var height: Int
    /// The time of the last `.tick` (or the time given at creation); ages and uptime are relative to it.
    public private(set) var now: Date
    /// When the dashboard started; the header's uptime counts from it.
    public private(set) var startedAt: Date
    /// Colours the terminal can show; `.monochrome` under `NO_COLOR` (decided by the caller).
    public private(set) var colorDepth: ColorDepth {
        didSet { palette = Palette(theme: theme, depth: colorDepth) }
    }
    /// Whether Unicode glyphs (box drawing, braille sparkline) may be used; the caller sets it from the locale.
    public private(set) var unicode: Bool
    /// Themes cycled by `t`; never empty.
    public private(set) var themes: [Theme] {
        didSet { palette = Palette(theme: theme, depth: colorDepth) }
    }
    /// The current theme's index in `themes`.
    public private(set) var themeIndex = 0 {
        didSet { palette = Palette(theme: theme, depth: colorDepth) }
    }
    /// The theme in use fitted to the colours shown: fitted when either changes, not for every frame.
    public private(set) var palette: Palette
    /// A one-line message for the footer: theme problems, the result of a command. Cleared by the first tick
    /// ``DashboardState/statusMessageDuration`` seconds after it was set.
    public private(set) var statusMessage: String?
    /// When ``statusMessage`` was last set (the state's `now` at that moment).
    public private(set) var statusMessageSetAt: Date?
    /// The focused pane (bold border); Tab and Shift-Tab cycle it through the panes on screen.
    public private(set) var focus: Pane = .errors
    /// Whether the `?` overlay is shown.
    public private(set) var showsHelp = false
    /// Where the `?` overlay is scrolled when its lines do not fit (as a detail view is: the keys' moves, kept
    /// within its lines when drawn); back at the top each time it opens.
    public private(set) var helpScroll = DetailScroll()
    /// The page sizes and the panes on screen for the current size, as the layout last gave them (the root reducer
    /// sends ``Action/laidOut(_:)`` when the size or the panes change): what PgUp, PgDn and Tab go by.
    public private(set) var viewport = Viewport()

    /// What changes the screen slice.
    enum Action: Sendable {
        /// The terminal changed size.
        case resized(width: Int, height: Int)
        /// The layout for the current size and panes: page sizes and the panes on screen.
        case laidOut(Viewport)
        /// The clock moved on.
        case ticked(Date)
        /// A theme file was loaded: added (or replaced, by name) and made current.
        case themeLoaded(Theme)
        /// The theme at `index` (clamped) was chosen.
        case themeSelected(Int)
        /// `t`: the next theme.
        case themeCycled
        /// The terminal shows at most this many colours.
        case colorDepthDetected(ColorDepth)
        /// A theme file did not load, for this reason (made safe to draw).
        case themeFailed(String)
        /// A message from outside the dashboard (made safe to draw).
        case messageReported(String)
        /// A message of the dashboard's own; `restamped` keeps it up for the full duration again even when it is
        /// the message already shown (a repeated app command).
        case said(String, restamped: Bool = false)
        /// Tab (`forward`) or Shift-Tab: the next or previous pane on screen.
        case focusCycled(forward: Bool)
        /// A key moved the focus to `pane`.
        case focused(Pane)
        /// The Sources pane went away (no source is watched any more): a focus on it returns to Errors.
        case sourcesGone
        /// `?`: the help overlay shown or hidden.
        case helpToggled
        /// Something closed the help overlay.
        case helpClosed
        /// A scroll key while the help overlay is shown, `page` rows a page.
        case helpScrolled(ScrollMove, page: Int)
    }

    /// A screen of `width` × `height` at `now` (within ``DashboardState/maximumSize``). `themes` falls back to the
    /// built-in default when empty.
    public init(
        width: Int, height: Int, now: Date, themes: [Theme], colorDepth: ColorDepth, unicode: Bool = true
    ) {
        (self.width, self.height) = Self.drawnSize(width: width, height: height)
        self.now = now
        self.startedAt = now
        self.themes = themes.isEmpty ? [.default] : themes
        self.colorDepth = colorDepth
        self.unicode = unicode
        palette = Palette(theme: self.themes[0], depth: colorDepth)
    }

    /// The theme in use.
    public var theme: Theme { themes[min(max(0, themeIndex), themes.count - 1)] }

    /// Applies `action`; returns whether anything visible changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .resized(let width, let height):
            let size = Self.drawnSize(width: width, height: height)
            defer { (self.width, self.height) = size }
            return size != (self.width, self.height)
        case .laidOut(let viewport):
            self.viewport = viewport
            return false
        case .ticked(let date):
            return tick(to: date)
        case .themeLoaded(let theme):
            if let index = themes.firstIndex(where: { $0.name == theme.name }) {
                themes[index] = theme
                themeIndex = index
            } else {
                themes.append(theme)
                themeIndex = themes.count - 1
            }
            say("theme \(Sanitizer.sanitize(theme.name, limit: 40))")
        case .themeSelected(let index):
            let selected = min(max(0, index), themes.count - 1)
            defer { themeIndex = selected }
            return selected != themeIndex
        case .themeCycled:
            guard themes.count > 1 else {
                say("only one theme loaded")
                return true
            }
            themeIndex = (themeIndex + 1) % themes.count
            say("theme \(theme.name)")
        case .colorDepthDetected(let depth):
            defer { colorDepth = min(colorDepth, depth) }
            return depth < colorDepth
        case .themeFailed(let reason):
            say("theme not loaded: " + Sanitizer.sanitize(reason, limit: 200))
        case .messageReported(let message):
            say(Sanitizer.sanitize(message, limit: 200))
        case .said(let message, let restamped):
            say(message, restamped: restamped)
        case .focusCycled(let forward):
            // A pane the layout has no room for (or nothing to show in) is skipped.
            let panes = viewport.panes.isEmpty ? [Pane.errors] : viewport.panes
            let count = panes.count
            let index = panes.firstIndex(of: focus)
            focus = panes[forward ? ((index ?? -1) + 1) % count : ((index ?? 0) + count - 1) % count]
        case .focused(let pane):
            focus = pane
        case .sourcesGone:
            guard focus == .sources else { return false }
            focus = .errors
        case .helpToggled:
            showsHelp.toggle()
            helpScroll = DetailScroll()
        case .helpClosed:
            showsHelp = false
            helpScroll = DetailScroll()
        case .helpScrolled(let move, let page):
            guard showsHelp else { return false }
            let before = helpScroll
            helpScroll.apply(move, page: page)
            return helpScroll != before
        }
        return true
    }

    /// Shows `message` on the status line, for ``DashboardState/statusMessageDuration`` seconds from now when it
    /// is new (or `restamped`).
    private mutating func say(_ message: String, restamped: Bool = false) {
        if restamped || message != statusMessage { statusMessageSetAt = now }
        statusMessage = message
    }

    /// The part of a `width` × `height` terminal that is drawn: no negative sizes, at most
    /// ``DashboardState/maximumSize``.
    public static func drawnSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let maximum = DashboardState.maximumSize
        return (min(max(0, width), maximum.width), min(max(0, height), maximum.height))
    }

    /// Moves the clock to `date`; returns whether the displayed second changed. A status message older than
    /// ``DashboardState/statusMessageDuration`` is cleared (and counts as a change when there was one).
    private mutating func tick(to date: Date) -> Bool {
        let before = Int(now.timeIntervalSince(startedAt).rounded(.down))
        now = date
        var changed = before != Int(now.timeIntervalSince(startedAt).rounded(.down))
        if let setAt = statusMessageSetAt, date.timeIntervalSince(setAt) >= DashboardState.statusMessageDuration {
            changed = changed || statusMessage != nil
            statusMessage = nil
            statusMessageSetAt = nil
        }
        return changed
    }
}
