/// The header row: `errorwatch`, uptime, theme, colour depth, active filters, and `PAUSED +N` at the right.
public enum HeaderBar {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        guard !area.isEmpty else { return }
        let bar = palette[.header]
        buffer.fill(area, style: bar)
        let separator = state.screen.unicode ? " │ " : " | "
        var right = area.maxX
        if state.logs.isPaused {
            let paused = " PAUSED +\(Format.count(state.logs.arrivedWhilePaused)) "
            right = max(area.x, right - DisplayWidth.of(paused))
            buffer.write(paused, x: right, y: area.y, style: palette[.paused], clip: area)
        }
        right = drawStoreNote(state, right: right, in: area, into: &buffer, palette: palette)
        var column = buffer.write(
            " errorwatch", x: area.x, y: area.y, style: palette[.headerAccent],
            clip: Rect(x: area.x, y: area.y, width: right - area.x, height: 1))
        // The filter matters more than uptime or theme on a narrow terminal: reserve room for it first.
        var filter = ""
        if state.filter.isActive {
            var parts = state.filter.types.sorted()
            if !state.filter.query.isEmpty { parts.append(state.filter.query.text) }
            filter = parts.joined(separator: " ")
        }
        let filterLabel = separator + "filter "
        let reserved = filter.isEmpty ? 0 : min(DisplayWidth.of(filterLabel + filter), max(0, right - column - 1))
        let items =
            [
                "up " + Format.uptime(state.screen.now.timeIntervalSince(state.screen.startedAt)),
                "theme \(state.screen.theme.name)",
                state.screen.colorDepth.label,
            ] + (state.filter.isActive ? [] : ["no filter"])
        for item in items {
            let text = separator + item
            guard column + DisplayWidth.of(text) <= right - reserved - 1 else { break }
            column = buffer.write(text, x: column, y: area.y, style: bar, clip: area)
        }
        if !filter.isEmpty, column < right - 1 {
            column = buffer.write(
                filterLabel, x: column, y: area.y, style: bar,
                clip: Rect(x: area.x, y: area.y, width: right - area.x - 1, height: 1))
            buffer.write(
                filter, x: column, y: area.y, width: max(0, right - column - 1),
                style: palette[.filter].on(bar), padding: false)
        }
    }
}
