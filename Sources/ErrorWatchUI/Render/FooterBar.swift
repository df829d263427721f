/// The footer row: key hints from the keymap (or the filter prompt while typing after `/`), and the status
/// message at the right.
public enum FooterBar: Widget {
    /// The footer reads across the slices: the status line, the prompt, the detail view open, the keymap.
    public static func part(of state: DashboardState) -> DashboardState { state }

    public static func render(_ input: WidgetInput<FooterBar>, in area: Rect, into buffer: inout ScreenBuffer) {
        guard !area.isEmpty else { return }
        let (state, palette) = (input.part, input.palette)
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
            if case .metric = state.detail.target {
                hints = [("Esc", "close"), ("w", "window: \(state.detail.chartWindow.label)")]
            } else if case .event = state.detail.target {
            } else {
                hints += [("[ ]", "occurrence"), ("Enter", "open")]
            }
            if !state.listedFrames.isEmpty { hints += [(", .", "frame"), ("f", "library frames")] }
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
            // A label's first word (`1…9`, not `1…9 Tab`); the hint fits whole or is not drawn, so its pieces are
            // written one after another, not joined (the footer is drawn each frame).
            let label = binding.footerLabel
            let width = 1 + DisplayWidth.of(label) + 1 + DisplayWidth.of(hint) + 1
            if column + width > room.maxX { break }
            column = buffer.write(" ", x: column, y: room.y, style: key, clip: room)
            column = buffer.write(label, x: column, y: room.y, style: key, clip: room)
            column = buffer.write(" ", x: column, y: room.y, style: bar, clip: room)
            column = buffer.write(hint, x: column, y: room.y, style: bar, clip: room)
            column = buffer.write(" ", x: column, y: room.y, style: bar, clip: room)
        }
    }
}
