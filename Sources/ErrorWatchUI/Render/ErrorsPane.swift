/// The `Errors` pane: user-facing alerts, coalesced with counts, newest first.
///
/// Each row: severity marker, title and `×12`, code, category, age relative to `state.now`. An alert not seen
/// for ``DashboardState/alertFadeAfter`` seconds is drawn dimmed. Background-origin errors never get here: the
/// reducer drops background alerts, and events only reach Logs and Metrics.
public enum ErrorsPane {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let alerts = state.visibleAlerts
        let rows = max(0, area.height - 2)
        let start = min(state.errorScroll, max(0, alerts.count - rows))
        let inner = Dashboard.frame(
            .errors, state: state, in: area, into: &buffer, palette: palette,
            label: label(state, shown: start..<min(alerts.count, start + rows), matching: alerts.count))
        guard !inner.isEmpty else { return }
        if alerts.isEmpty {
            let text = state.alerts.isEmpty ? "No alerts. All quiet." : "No alerts match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let wide = inner.width >= 60
        for row in 0..<min(inner.height, alerts.count - start) {
            drawRow(
                alerts[start + row], state: state, x: inner.x, y: inner.y + row, width: inner.width, wide: wide,
                into: &buffer, palette: palette)
        }
    }

    /// `5 alerts`, `1–3 of 5 alerts` when some are scrolled out of view, `2 of 5 alerts` when filtered.
    static func label(_ state: DashboardState, shown: Range<Int>, matching: Int) -> String {
        let total = state.alerts.count
        guard total > 0 else { return "" }
        let noun = total == 1 ? "alert" : "alerts"
        let dash = state.unicode ? "–" : "-"
        let range = shown.count < matching ? "\(shown.lowerBound + 1)\(dash)\(shown.upperBound) of " : ""
        if matching < total { return range.isEmpty ? "\(matching) of \(total) \(noun)" : range + "\(matching) shown" }
        return range.isEmpty ? "\(total) \(noun)" : range + "\(total) \(noun)"
    }

    static func drawRow(
        _ alert: AlertRecord, state: DashboardState, x: Int, y: Int, width: Int, wide: Bool,
        into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let age = state.now.timeIntervalSince(alert.lastSeen)
        let faded = age > DashboardState.alertFadeAfter
        let dim: CellAttributes = faded ? .dim : []
        let severity = palette.style(for: alert.severity).adding(dim)
        let ageText = Format.age(age)
        let code = alert.code?.description ?? ""
        let category = wide ? alert.category.label : ""
        // Right-hand columns: code (6), category (15 on wide panes), age (4), each after one space.
        let rightWidth = 7 + (wide ? 16 : 0) + 5
        let titleWidth = max(0, width - 2 - rightWidth)
        buffer.write(state.unicode ? "●" : "*", x: x, y: y, style: severity, clip: nil)
        var column = x + 2
        let count = alert.count > 1 ? (state.unicode ? " ×" : " x") + Format.count(alert.count) : ""
        let countWidth = DisplayWidth.of(count)
        let title = DisplayWidth.truncate(alert.title, to: max(1, titleWidth - countWidth))
        column = buffer.write(
            title, x: column, y: y, style: palette[faded ? .muted : .text],
            clip: Rect(x: x, y: y, width: width, height: 1))
        if countWidth > 0 {
            buffer.write(
                count, x: column, y: y, style: palette[.alert].adding(dim),
                clip: Rect(x: x, y: y, width: 2 + titleWidth, height: 1))
        }
        var right = x + width - rightWidth
        guard right > x + 2 else { return }
        buffer.write(" " + code, x: right, y: y, width: 7, style: severity)
        right += 7
        if wide {
            buffer.write(
                " " + category, x: right, y: y, width: 16, style: palette.style(for: alert.category).adding(dim))
            right += 16
        }
        let padded = String(repeating: " ", count: max(0, 4 - ageText.count)) + ageText
        buffer.write(" " + padded, x: right, y: y, width: 5, style: palette[.muted])
    }
}
