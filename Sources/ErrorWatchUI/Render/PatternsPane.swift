import ErrorStreaming

/// The Patterns view of the top-left pane (`v` after Issues): the templates of every line, logs too, most lines
/// first. Each row: count, the levels seen, the template, a `new` mark for a template first seen in the last
/// minute, a sparkline of the last 60 s, and first and last seen. `Enter` opens a template's lines.
public enum PatternsPane: Widget {
    public static func part(of state: DashboardState) -> PatternsState { state.patterns }

    /// The type filter does not apply: a template has lines of many types.
    public static func render(_ input: WidgetInput<PatternsPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (patterns, screen, palette) = (input.part, input.screen, input.palette)
        let rows = patterns.visibleIndices(input.filter)
        let selected =
            screen.focus == .errors && !rows.isEmpty
            ? patterns.selectedID.flatMap { id in rows.firstIndex { patterns.patterns[$0].id == id } } ?? 0 : nil
        let (inner, start) = ErrorsPane.frameList(
            "Patterns", count: rows.count, total: patterns.liveCount, noun: ("template", "templates"),
            scroll: patterns.scroll, selected: selected,
            note: { label in
                guard patterns.otherCount > 0 else { return label }
                let over = Format.count(patterns.otherCount)
                return label + " · \(over) lines over the \(patterns.capacity)-template limit"
            }, screen: screen, in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if rows.isEmpty {
            let text = patterns.liveCount == 0 ? "No lines yet." : "No templates match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let shown = start..<min(rows.count, start + inner.height)
        ErrorsPane.drawRows(shown, selected: selected, in: inner, into: &buffer, palette: palette) { index, y, buffer in
            drawRow(
                patterns.patterns[rows[index]], screen: screen, x: inner.x, y: y, width: inner.width, into: &buffer,
                palette: palette)
        }
    }

    /// One template: count, levels, template and `new`, then on the right the sparkline, first and last seen.
    static func drawRow(
        _ pattern: PatternRecord, screen: ScreenState, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer,
        palette: Palette
    ) {
        let row = Rect(x: x, y: y, width: width, height: 1)
        // The count right-aligned in 7 columns and a space, in the alert colour.
        let count = Format.count(pattern.count)
        let countEnd = min(row.maxX, x + max(8, count.utf8.count + 1))
        buffer.fill(Rect(x: x, y: y, width: countEnd - x, height: 1), style: palette[.alert])
        var column = buffer.write(count, x: x + max(0, 7 - count.utf8.count), y: y, style: palette[.alert], clip: row)
        column += 1
        // One letter per level seen, most severe first, each in its level's colour: `EW` is errors and warnings.
        // The letters are ASCII: each is put as a cell.
        var letters = 0
        for level in ErrorSeverity.allCases.reversed() where letters < 4 && pattern.levels[level.rawValue] > 0 {
            if column < row.maxX, let letter = level.tag.utf8.first {
                buffer.put(StoredCell(ascii: letter, style: palette.style(for: level)), x: column, y: y)
                column += 1
            }
            letters += 1
        }
        column = x + 8 + 5
        let sparkWidth = width >= 100 ? 20 : width >= 80 ? 12 : 0
        let right = (sparkWidth > 0 ? sparkWidth + 1 : 0) + (width >= 60 ? 5 : 0) + 5
        let isNew = screen.now.timeIntervalSince(pattern.discovered) <= PatternsState.newFor
        let mark = isNew ? " new" : ""
        let templateWidth = max(4, width - (column - x) - right - mark.count)
        let template = pattern.template
        let end: Int
        if template.utf8.count > templateWidth, column + templateWidth <= row.maxX,
            pattern.templateIsASCII
        {
            // An ASCII template too long for its room: its first columns then `…`, the cells `truncate` would
            // give, without making the cut text (most templates are cut on a narrow pane).
            buffer.write(template, x: column, y: y, width: templateWidth, style: palette[.text], padding: false)
            end = column + templateWidth
        } else {
            let shown = DisplayWidth.truncate(template, to: templateWidth)
            end = buffer.write(shown, x: column, y: y, style: palette[.text], clip: row)
        }
        if isNew { buffer.write(mark, x: end, y: y, style: palette[.alert].adding(.bold), clip: row) }
        let at = x + width - right
        guard at > column else { return }
        pattern.withPerSecond(endingAt: screen.now) { perSecond in
            ErrorsPane.drawTimes(
                perSecond, first: pattern.firstSeen, last: pattern.lastSeen, sparkWidth: sparkWidth, x: at, y: y,
                width: width, screen: screen, into: &buffer, palette: palette)
        }
    }
}
