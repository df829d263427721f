/// The header row: `errorwatch`, uptime, theme, colour depth, active filters, and `PAUSED +N` at the right.
public enum HeaderBar: Widget {
    /// The pause (from Logs: the lines that arrived while paused, `nil` when not paused) and the store's note (from
    /// the feeds).
    public typealias Part = (arrivedWhilePaused: Int?, storeNote: String?)

    public static func part(of state: DashboardState) -> Part {
        (state.logs.isPaused ? state.logs.arrivedWhilePaused : nil, state.feeds.storeNote)
    }

    public static func render(_ input: WidgetInput<HeaderBar>, in area: Rect, into buffer: inout ScreenBuffer) {
        guard !area.isEmpty else { return }
        let palette = input.palette
        let bar = palette[.header]
        buffer.fill(area, style: bar)
        let separator = input.screen.unicode ? " │ " : " | "
        var right = area.maxX
        let part = input.part
        if let arrived = part.arrivedWhilePaused {
            let paused = " PAUSED +\(Format.count(arrived)) "
            right = max(area.x, right - DisplayWidth.of(paused))
            buffer.write(paused, x: right, y: area.y, style: palette[.paused], clip: area)
        }
        right = drawStoreNote(part.storeNote, right: right, in: area, into: &buffer, palette: palette)
        var column = buffer.write(
            " errorwatch", x: area.x, y: area.y, style: palette[.headerAccent],
            clip: Rect(x: area.x, y: area.y, width: right - area.x, height: 1))
        // The filter matters more than uptime or theme on a narrow terminal: reserve room for it first.
        var filter = ""
        if input.filter.isActive {
            var parts = input.filter.types.sorted()
            if !input.filter.query.isEmpty { parts.append(input.filter.query.text) }
            filter = parts.joined(separator: " ")
        }
        let filterLabel = separator + "filter "
        let reserved = filter.isEmpty ? 0 : min(DisplayWidth.of(filterLabel + filter), max(0, right - column - 1))
        let items =
            [
                "up " + Format.uptime(input.screen.now.timeIntervalSince(input.screen.startedAt)),
                "theme \(input.screen.theme.name)",
                input.screen.colorDepth.label,
            ] + (input.filter.isActive ? [] : ["no filter"])
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
