/// Draws the whole dashboard: the render entry point.
///
/// ```swift
/// let frame = Dashboard.render(state)                   // a new buffer of state.screen.width × state.screen.height
/// Dashboard.render(state, into: &current)               // the same, stored into an existing variable
/// let changes = frame.changes(since: previousFrame)     // what the backend writes
/// ```
///
/// Pure and deterministic: the result depends only on the state (clock and size included). Only visible rows are
/// drawn, so the cost does not grow with history length.
public enum Dashboard {
    /// A new frame of `state`.
    public static func render(_ state: DashboardState) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: state.screen.width, height: state.screen.height)
        draw(state, into: &buffer)
        return buffer
    }

    /// Replaces `buffer` with the frame of `state`. Drawing into a fresh buffer measured faster than clearing and
    /// overwriting an old one (see docs/benchmarks-render.md), so this is `buffer = render(state)`; it exists
    /// so a double-buffering backend can keep its two buffers as stored properties.
    public static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        buffer = render(state)
    }

    static func draw(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let palette = state.screen.palette
        let layout = DashboardLayout(
            width: buffer.width, height: buffer.height, showsStatus: DashboardLayout.showsStatus(state.feeds),
            sourceCount: state.feeds.sources.count)
        // Every widget has the one shape: its input, read from the frame they share, drawn into its area.
        let frame = WidgetFrame(state: state, palette: palette)
        func draw<W: Widget>(_ widget: W.Type, in area: Rect) {
            widget.render(WidgetInput(frame: frame), in: area, into: &buffer)
        }
        // Header, panes and footer tile the screen and each clears its own area, so the whole screen is only
        // cleared for the too-small screen (PropertyTests checks that drawing over garbage leaves none).
        if layout.isTooSmall {
            buffer.fill(buffer.area, style: palette[.text])
            draw(TooSmallScreen.self, in: buffer.area)
            return
        }
        draw(HeaderBar.self, in: layout.header)
        if state.detail.target != nil {
            // A detail view fills the body; header and footer stay.
            draw(DetailView.self, in: layout.body)
        } else {
            draw(ErrorsPane.self, in: layout.errors)
            draw(LogsPane.self, in: layout.logs)
            draw(MetricsPane.self, in: layout.metrics)
            draw(StatusPane.self, in: layout.status)
            draw(SourcesPane.self, in: layout.sources)
        }
        draw(FooterBar.self, in: layout.footer)
        if state.screen.showsHelp { draw(HelpOverlay.self, in: buffer.area) }
    }

    /// Draws a pane's border and title, focused or not, and returns the area inside it.
    /// `label` goes at the right of the top edge (a count, `following`, `paused`).
    static func frame(
        _ pane: Pane, screen: ScreenState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette,
        label: String = "", title: String? = nil
    ) -> Rect {
        let focused = screen.focus == pane
        let title = title ?? pane.title
        // The box's border covers its edge cells (when it is drawn, at 2×2 or more), so only the inside is blanked.
        buffer.fill(area.width >= 2 && area.height >= 2 ? area.inset(by: 1) : area, style: palette[.text])
        buffer.drawBox(
            area, title: title, borderStyle: palette[focused ? .focusedBorder : .border],
            titleStyle: palette[focused ? .focusedTitle : .title], unicode: screen.unicode)
        let labelWidth = DisplayWidth.of(label)
        if !label.isEmpty, area.width >= DisplayWidth.of(title) + labelWidth + 10 {
            buffer.write(" \(label) ", x: area.maxX - labelWidth - 4, y: area.y, style: palette[.muted], clip: area)
        }
        return area.inset(by: 1)
    }
}
