/// The `Logs` pane: every event and log line, oldest at the top, with time, level, source, type and message.
///
/// It follows the tail unless scrolled (`logs.scroll > 0`) or paused. Only the visible rows are looked at: walking
/// back from the newest line stops as soon as the view is full, so drawing does not grow with history.
public enum LogsPane: Widget {
    /// The Logs slice, and where the receivers listen (said while nothing has arrived).
    public typealias Part = (logs: LogsState, receivers: [ReceiverAddress])

    public static func part(of state: DashboardState) -> Part { (state.logs, state.feeds.receivers) }

    public static func render(_ input: WidgetInput<LogsPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (part, filter, screen, palette) = (input.part, input.filter, input.screen, input.palette)
        let logs = part.logs
        var label: String
        if logs.isPaused {
            label = "paused"
        } else if logs.scroll > 0 {
            label = "\(Format.count(logs.scroll)) newer ↓"
        } else {
            label = logs.lines.isEmpty ? "" : "following"
        }
        if let progress = logs.refilterProgress {
            let counts = "filtering… \(Int(progress * 100))% · \(Format.count(logs.filtered.count)) so far"
            label = label.isEmpty ? counts : counts + " · " + label
        } else if filter.isActive {
            let counts = "\(Format.count(logs.filtered.count)) of \(Format.count(logs.lines.count))"
            label = label.isEmpty ? counts : counts + " · " + label
        }
        if logs.olderThanKept > 0 {
            // Lines that came later than their place in a full ring: said, never shown out of order.
            let older = "\(Format.count(logs.olderThanKept)) older not kept"
            label = label.isEmpty ? older : label + " · " + older
        }
        let inner = Dashboard.frame(
            .logs, screen: screen, in: area, into: &buffer, palette: palette,
            label: screen.unicode ? label : label.replacingOccurrences(of: " ↓", with: " below"))
        guard !inner.isEmpty else { return }
        // The rows are read where the history keeps them: copying them out would copy every field of each.
        let rows = logs.visibleSlice(filter, count: inner.height)
        if rows.isEmpty, logs.lines.isEmpty, !part.receivers.isEmpty {
            WhereToSend.draw(part.receivers, in: inner, into: &buffer, palette: palette)
            return
        }
        if rows.isEmpty {
            let text =
                logs.lines.isEmpty
                ? "Waiting for events…" : logs.isRefiltering ? "Filtering the history…" : "No lines match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let columns = Columns(rows, width: inner.width)
        for index in rows.indices {
            drawRow(
                rows[index], logs: logs, filter: filter, screen: screen, x: inner.x,
                y: inner.y + index - rows.startIndex, width: inner.width, columns: columns, into: &buffer,
                palette: palette)
        }
    }

    /// The events on screen, oldest first: at most `count`, ending `logs.scroll` matching lines before the newest.
    public static func visibleRows(_ logs: LogsState, filter: FilterState, count: Int) -> [DashboardEvent] {
        logs.visibleRows(filter, count: count)
    }

    /// The widths of the source and type columns for the rows on screen: at least 14 and 16 (12 in a narrower
    /// pane), more when a visible name needs it, up to a fifth of the row each, so a name is cut only when the
    /// message would otherwise lose its room. A pane under 70 (50) columns drops the source (type) column.
    struct Columns {
        var source: Int
        var type: Int

        init(_ rows: some Collection<DashboardEvent>, width: Int) {
            let share = width / 5
            // The widest name and a blank, measured in place (no array of names or widths per frame).
            func needed(_ name: (DashboardEvent) -> String) -> Int {
                var widest = 0
                for row in rows { widest = max(widest, DisplayWidth.of(name(row))) }
                return widest + 1
            }
            source = width >= 70 ? max(14, min(needed(LogsPane.shownSource), share)) : 0
            type = width >= 90 ? max(16, min(needed(\.typeName), share)) : (width >= 50 ? 12 : 0)
        }
    }

    /// The source column: the component that produced the line, else its service, else nothing (a producer that
    /// named neither).
    static func shownSource(_ event: DashboardEvent) -> String {
        event.source.isEmpty ? event.service ?? "" : event.source
    }

    static func drawRow(
        _ event: DashboardEvent, logs: LogsState, filter: FilterState, screen: ScreenState, x: Int, y: Int, width: Int,
        columns: Columns, into buffer: inout ScreenBuffer,
        palette: Palette
    ) {
        let selected = event.sequence == logs.selectedSequence
        let base = selected ? palette[.selection] : palette[.text]
        func styled(_ style: CellStyle) -> CellStyle { selected ? style.on(base).adding(.bold) : style }
        if selected { buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: base) }
        let clip = Rect(x: x, y: y, width: width, height: 1)
        var column = buffer.write(Format.clock(event.timestamp), x: x, y: y, style: styled(palette[.muted]), clip: clip)
        column = buffer.write(
            " " + event.level.tag, x: column, y: y, style: styled(palette.style(for: event.level)),
            clip: clip)
        let sourceWidth = columns.source
        let typeWidth = columns.type
        // A blank, then each column's text: a blank and a name are written, not joined into a new string.
        func writeColumn(_ text: String, width columnWidth: Int, style: CellStyle) {
            var run = TextRun(x: column, y: y, width: min(columnWidth, x + width - column), style: style)
            run.append(" ", into: &buffer)
            run.append(text, into: &buffer)
            run.finish(into: &buffer)
        }
        if sourceWidth > 0 {
            writeColumn(shownSource(event), width: sourceWidth, style: styled(palette[.muted]))
            column += sourceWidth
        }
        if typeWidth > 0, column < x + width {
            let typeStyle =
                event.kind == .error ? event.category.map { palette.style(for: $0) } ?? palette[.text] : palette[.muted]
            writeColumn(event.typeName, width: typeWidth, style: styled(typeStyle))
            column += typeWidth
        }
        guard column < x + width - 1 else { return }
        let messageStyle = event.kind == .error ? palette[.text] : palette[.muted]
        let room = x + width - column
        // A blank, then the message's pieces in the rest of the row, written one after another.
        var run = TextRun(x: column, y: y, width: room, style: styled(messageStyle))
        run.append(" ", into: &buffer)
        forEachPiece(of: event, typeShown: typeWidth > 0, unicode: screen.unicode) { run.append($0, into: &buffer) }
        run.finish(into: &buffer)
        // What the query's words, phrases and regexes matched, highlighted in the message as drawn.
        guard !filter.query.isEmpty, room > 1 else { return }
        var message = ""
        forEachPiece(of: event, typeShown: typeWidth > 0, unicode: screen.unicode) { message += $0 }
        let shown = DisplayWidth.truncate(message, to: room - 1)
        let highlight = palette[.filter].adding([.bold, .reverse])
        for range in filter.query.highlights(in: shown) {
            let start = column + 1 + DisplayWidth.of(shown[..<range.lowerBound])
            guard start < x + width else { break }
            buffer.write(
                String(shown[range]), x: start, y: y, style: highlight, clip: Rect(x: x, y: y, width: width, height: 1))
        }
    }

    /// The message column's text, piece by piece: `bg · ` for a background error, the code in brackets, the
    /// developer's sentence and the exception's (with its type when no column shows it), the attempt.
    static func forEachPiece(
        of event: DashboardEvent, typeShown: Bool, unicode: Bool, _ body: (String) -> Void
    ) {
        if event.origin == .background, event.kind == .error { body("bg · ") }
        if let code = event.shownCode, !code.isEmpty {
            body("[")
            body(code)
            body("] ")
        }
        if let logMessage = event.logMessage {
            body(logMessage)
            body(unicode ? " — " : " - ")
            if !typeShown, !event.typeName.isEmpty {
                body(event.typeName)
                body(": ")
            }
        }
        body(event.message)
        if let attempt = event.attempt {
            body(" (attempt ")
            body(String(attempt))
            body(")")
        }
    }
}
