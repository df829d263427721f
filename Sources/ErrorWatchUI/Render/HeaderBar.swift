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

/// The footer row: key hints from the keymap (or the filter prompt while typing after `/`), and the status
/// message at the right.
public enum FooterBar {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        guard !area.isEmpty else { return }
        let bar = palette[.footer]
        let key = palette[.footerKey]
        buffer.fill(area, style: bar)
        var limit = area.maxX
        if let message = state.screen.statusMessage, !message.isEmpty {
            let width = min(DisplayWidth.of(message) + 2, area.width / 2)
            limit -= width
            buffer.write(
                " " + message + " ", x: limit, y: area.y, width: width, style: palette[.status],
                padding: true)
        }
        let room = Rect(x: area.x, y: area.y, width: max(0, limit - area.x - 1), height: 1)
        if state.filter.isEditing {
            var column = buffer.write(" / ", x: room.x, y: room.y, style: key, clip: room)
            column = buffer.write("query: ", x: column, y: room.y, style: bar, clip: room)
            // The end of a long query stays visible: that is where the typing happens.
            let draftRoom = max(8, room.maxX - column - (state.filter.error == nil ? 22 : 40))
            var draft = Substring(state.filter.draft)
            while DisplayWidth.of(draft) > draftRoom - 1, !draft.isEmpty { draft = draft.dropFirst() }
            let draftStart = column
            column = buffer.write(String(draft), x: column, y: room.y, style: palette[.filter].on(bar), clip: room)
            column = buffer.write(state.screen.unicode ? "▏" : "_", x: column, y: room.y, style: key, clip: room)
            if let error = state.filter.error {
                // Mark where the problem is, under the typed text when it is visible.
                let offset = error.position - (state.filter.draft.count - draft.count)
                if offset >= 0, offset < draft.count {
                    let x = draftStart + DisplayWidth.of(draft.prefix(offset))
                    if var cell = buffer[x, room.y] {
                        cell.style = palette[.alert].adding(.reverse)
                        buffer.set(cell, x: x, y: room.y)
                    }
                }
                buffer.write(
                    "  " + error.description, x: column, y: room.y, style: palette[.alert].on(bar), clip: room)
                return
            }
            column = buffer.write("   Enter ", x: column, y: room.y, style: key, clip: room)
            column = buffer.write("apply  ", x: column, y: room.y, style: bar, clip: room)
            column = buffer.write("Esc ", x: column, y: room.y, style: key, clip: room)
            buffer.write("cancel", x: column, y: room.y, style: bar, clip: room)
            return
        }
        var column = room.x
        if state.detail.target != nil {
            // A detail view has keys of its own.
            var hints = [("Esc", "close"), ("j k", "scroll"), ("PgUp PgDn", "page")]
            if case .event = state.detail.target {} else { hints += [("[ ]", "occurrence"), ("Enter", "open")] }
            hints.append(("?", "help"))
            for (label, hint) in hints {
                let width = 1 + DisplayWidth.of(label) + 1 + DisplayWidth.of(hint) + 1
                if column + width > room.maxX { break }
                column = buffer.write(" " + label, x: column, y: room.y, style: key, clip: room)
                column = buffer.write(" " + hint + " ", x: column, y: room.y, style: bar, clip: room)
            }
            return
        }
        // The keys in force: an attached app's hints appear only while it is attached.
        for binding in state.keymap.bindings {
            guard let hint = binding.hint else { continue }
            let label = binding.keyLabel.split(separator: " ").first.map(String.init) ?? binding.keyLabel
            let width = 1 + DisplayWidth.of(label) + 1 + DisplayWidth.of(hint) + 1
            if column + width > room.maxX { break }
            column = buffer.write(" " + label, x: column, y: room.y, style: key, clip: room)
            column = buffer.write(" " + hint + " ", x: column, y: room.y, style: bar, clip: room)
        }
    }
}

/// What is drawn when the terminal is smaller than ``DashboardState/minimumSize``.
public enum TooSmallScreen {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let minimum = DashboardState.minimumSize
        let times = state.screen.unicode ? "×" : "x"
        let lines = [
            ("terminal too small", palette[.alert]),
            ("\(area.width)\(times)\(area.height), need \(minimum.width)\(times)\(minimum.height)", palette[.text]),
            ("q quits", palette[.muted]),
        ]
        let top = area.y + max(0, (area.height - lines.count) / 2)
        for (index, (text, style)) in lines.enumerated() where top + index < area.maxY {
            let width = DisplayWidth.of(text)
            let x = area.x + max(0, (area.width - width) / 2)
            buffer.write(DisplayWidth.truncate(text, to: area.width), x: x, y: top + index, style: style, clip: area)
        }
    }
}
