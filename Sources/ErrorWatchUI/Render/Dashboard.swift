/// Draws the whole dashboard: the render entry point.
///
/// ```swift
/// let frame = Dashboard.render(state)                   // a new buffer of state.width × state.height
/// Dashboard.render(state, into: &frame)                 // reuses a buffer (resized if the size changed)
/// let changes = frame.changes(since: previousFrame)     // what the backend writes
/// ```
///
/// Pure and deterministic: the result depends only on the state (clock and size included). Only visible rows are
/// drawn, so the cost does not grow with history length.
public enum Dashboard {
    /// A new frame of `state`.
    public static func render(_ state: DashboardState) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: state.width, height: state.height)
        draw(state, into: &buffer)
        return buffer
    }

    /// Draws `state` into `buffer`, replacing it with a blank buffer of the right size first when sizes differ.
    public static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        if buffer.width != max(0, state.width) || buffer.height != max(0, state.height) {
            buffer = ScreenBuffer(width: state.width, height: state.height)
        }
        draw(state, into: &buffer)
    }

    static func draw(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let palette = Palette(theme: state.theme, depth: state.colorDepth)
        let layout = DashboardLayout(width: buffer.width, height: buffer.height)
        // Header, panes and footer tile the screen and each clears its own area, so the whole screen is only
        // cleared for the too-small screen (PropertyTests checks that a reused buffer keeps nothing stale).
        if layout.isTooSmall {
            buffer.fill(buffer.area, style: palette[.text])
            TooSmallScreen.render(state, in: buffer.area, into: &buffer, palette: palette)
            return
        }
        HeaderBar.render(state, in: layout.header, into: &buffer, palette: palette)
        ErrorsPane.render(state, in: layout.errors, into: &buffer, palette: palette)
        LogsPane.render(state, in: layout.logs, into: &buffer, palette: palette)
        MetricsPane.render(state, in: layout.metrics, into: &buffer, palette: palette)
        FlowsPane.render(state, in: layout.flows, into: &buffer, palette: palette)
        FooterBar.render(state, in: layout.footer, into: &buffer, palette: palette)
        if state.showsHelp { HelpOverlay.render(state, in: buffer.area, into: &buffer, palette: palette) }
    }

    /// Draws a pane's border and title, focused or not, and returns the area inside it.
    /// `label` goes at the right of the top edge (a count, `following`, `paused`).
    static func frame(
        _ pane: Pane, state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette,
        label: String = ""
    ) -> Rect {
        let focused = state.focus == pane
        buffer.fill(area, style: palette[.text])
        buffer.drawBox(
            area, title: pane.title, borderStyle: palette[focused ? .focusedBorder : .border],
            titleStyle: palette[focused ? .focusedTitle : .title], unicode: state.unicode)
        let labelWidth = DisplayWidth.of(label)
        if !label.isEmpty, area.width >= DisplayWidth.of(pane.title) + labelWidth + 10 {
            buffer.write(" \(label) ", x: area.maxX - labelWidth - 4, y: area.y, style: palette[.muted], clip: area)
        }
        return area.inset(by: 1)
    }
}
