import Foundation

/// The screen slice of ``DashboardState``: the terminal's size and abilities, the clock, the theme, the status
/// line, the focused pane and the help overlay. Written only by reducers (``reduce(_:)`` and the key handling).
///
/// ```swift
/// var screen = ScreenState(width: 80, height: 24, now: start, themes: [.default], colorDepth: .colors256)
/// _ = screen.reduce(.resized(width: 120, height: 40))   // true: the size changed
/// ```
public struct ScreenState: Sendable, Equatable {
    /// Terminal columns drawn, at most ``DashboardState/maximumSize``.
    public internal(set) var width: Int
    /// Terminal rows drawn, at most ``DashboardState/maximumSize``.
    public internal(set) var height: Int
    /// The time of the last `.tick` (or the time given at creation); ages and uptime are relative to it.
    public internal(set) var now: Date
    /// When the dashboard started; the header's uptime counts from it.
    public internal(set) var startedAt: Date
    /// Colours the terminal can show; `.monochrome` under `NO_COLOR` (decided by the caller).
    public internal(set) var colorDepth: ColorDepth
    /// Whether Unicode glyphs (box drawing, braille sparkline) may be used; the caller sets it from the locale.
    public internal(set) var unicode: Bool
    /// Themes cycled by `t`; never empty.
    public internal(set) var themes: [Theme]
    /// The current theme's index in `themes`.
    public internal(set) var themeIndex = 0
    /// A one-line message for the footer: theme problems, the result of a command. Cleared by the first tick
    /// ``DashboardState/statusMessageDuration`` seconds after it was set.
    public internal(set) var statusMessage: String?
    /// When ``statusMessage`` was last set (the state's `now` at that moment).
    public internal(set) var statusMessageSetAt: Date?
    /// The focused pane (bold border); Tab and Shift-Tab cycle it.
    public internal(set) var focus: Pane = .errors
    /// Whether the `?` overlay is shown.
    public internal(set) var showsHelp = false

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
    }

    /// The theme in use.
    public var theme: Theme { themes[min(max(0, themeIndex), themes.count - 1)] }

    /// Applies the actions about the terminal, the theme and the status line; returns whether anything visible
    /// changed. Others leave it as it is.
    mutating func reduce(_ action: DashboardAction) -> Bool {
        switch action {
        case .resized(let width, let height):
            let size = Self.drawnSize(width: width, height: height)
            defer { (self.width, self.height) = size }
            return size != (self.width, self.height)
        case .themeLoaded(let theme):
            if let index = themes.firstIndex(where: { $0.name == theme.name }) {
                themes[index] = theme
                themeIndex = index
            } else {
                themes.append(theme)
                themeIndex = themes.count - 1
            }
            statusMessage = "theme \(Sanitizer.sanitize(theme.name, limit: 40))"
            return true
        case .themeSelected(let index):
            let selected = min(max(0, index), themes.count - 1)
            defer { themeIndex = selected }
            return selected != themeIndex
        case .colorDepthDetected(let depth):
            defer { colorDepth = min(colorDepth, depth) }
            return depth < colorDepth
        case .themeFailed(let reason):
            statusMessage = "theme not loaded: " + Sanitizer.sanitize(reason, limit: 200)
            return true
        case .statusMessage(let message):
            statusMessage = Sanitizer.sanitize(message, limit: 200)
            return true
        default:
            return false
        }
    }

    /// The part of a `width` × `height` terminal that is drawn: no negative sizes, at most
    /// ``DashboardState/maximumSize``.
    public static func drawnSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let maximum = DashboardState.maximumSize
        return (min(max(0, width), maximum.width), min(max(0, height), maximum.height))
    }

    /// Moves the clock to `date`; returns whether the displayed second changed. A status message older than
    /// ``DashboardState/statusMessageDuration`` is cleared (and counts as a change when there was one).
    mutating func tick(to date: Date) -> Bool {
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

    /// `t`: the next theme, said on the status line.
    mutating func cycleTheme() {
        guard themes.count > 1 else {
            statusMessage = "only one theme loaded"
            return
        }
        themeIndex = (themeIndex + 1) % themes.count
        statusMessage = "theme \(theme.name)"
    }
}
