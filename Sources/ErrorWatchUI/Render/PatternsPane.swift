/// The Patterns view of the top-left pane (`v` after Issues): the templates of every line, logs too, most lines
/// first. Each row: count, the levels seen, the template, a `new` mark for a template first seen in the last
/// minute, a sparkline of the last 60 s, and first and last seen. `Enter` opens a template's lines.
public enum PatternsPane {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ patterns: PatternsState, filter: FilterState = FilterState(), screen: ScreenState, in area: Rect,
        into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let rows = patterns.visible(filter)
        let height = max(0, area.height - 2)
        let selectedIndex =
            screen.focus == .errors && !rows.isEmpty
            ? patterns.selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0 : nil
        var start = min(patterns.scroll, max(0, rows.count - height))
        if let selectedIndex, height > 0 {
            if selectedIndex < start { start = selectedIndex }
            if selectedIndex >= start + height { start = selectedIndex - height + 1 }
        }
        var label = ErrorsPane.label(
            screen, shown: start..<min(rows.count, start + height), matching: rows.count, total: patterns.liveCount,
            noun: ("template", "templates"))
        if patterns.otherCount > 0 {
            label += " · \(Format.count(patterns.otherCount)) lines over the \(patterns.capacity)-template limit"
        }
        let inner = Dashboard.frame(
            .errors, screen: screen, in: area, into: &buffer, palette: palette, label: label, title: "Patterns")
        guard !inner.isEmpty else { return }
        if rows.isEmpty {
            let text = patterns.liveCount == 0 ? "No lines yet." : "No templates match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        for row in 0..<min(inner.height, rows.count - start) {
            let y = inner.y + row
            drawRow(rows[start + row], screen: screen, x: inner.x, y: y, width: inner.width, into: &buffer, palette: palette)
            if start + row == selectedIndex {
                ErrorsPane.highlight(Rect(x: inner.x, y: y, width: inner.width, height: 1), &buffer, palette)
            }
        }
    }

    /// One template: count, levels, template and `new`, then on the right the sparkline, first and last seen.
    static func drawRow(
        _ pattern: PatternRecord, screen: ScreenState, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer,
        palette: Palette
    ) {
        let row = Rect(x: x, y: y, width: width, height: 1)
        let count = Format.count(pattern.count)
        var column = buffer.write(
            String(repeating: " ", count: max(0, 7 - count.count)) + count + " ", x: x, y: y, style: palette[.alert],
            clip: row)
        // One letter per level seen, most severe first, each in its level's colour: `EW` is errors and warnings.
        let levels = pattern.levelsSeen.prefix(4)
        for level in levels {
            column = buffer.write(
                String(level.tag.trimmingCharacters(in: .whitespaces).prefix(1)), x: column, y: y,
                style: palette.style(for: level), clip: row)
        }
        column = x + 8 + 5
        let sparkWidth = width >= 100 ? 20 : width >= 80 ? 12 : 0
        let right = (sparkWidth > 0 ? sparkWidth + 1 : 0) + (width >= 60 ? 5 : 0) + 5
        let isNew = screen.now.timeIntervalSince(pattern.discovered) <= PatternsState.newFor
        let mark = isNew ? " new" : ""
        let templateWidth = max(4, width - (column - x) - right - mark.count)
        let shown = DisplayWidth.truncate(pattern.template, to: templateWidth)
        let end = buffer.write(shown, x: column, y: y, style: palette[.text], clip: row)
        if isNew { buffer.write(mark, x: end, y: y, style: palette[.alert].adding(.bold), clip: row) }
        var at = x + width - right
        guard at > column else { return }
        if sparkWidth > 0 {
            buffer.write(
                Sparkline.render(pattern.perSecond(endingAt: screen.now), width: sparkWidth, unicode: screen.unicode),
                x: at, y: y, width: sparkWidth, style: palette[.sparkline])
            at += sparkWidth + 1
        }
        let first = Format.age(screen.now.timeIntervalSince(pattern.firstSeen))
        let last = Format.age(screen.now.timeIntervalSince(pattern.lastSeen))
        if width >= 60 {
            buffer.write(
                String(repeating: " ", count: max(0, 4 - first.count)) + first, x: at, y: y, width: 5,
                style: palette[.muted])
            at += 5
        }
        buffer.write(
            String(repeating: " ", count: max(0, 4 - last.count)) + last + " ", x: at, y: y, width: 5,
            style: palette[.text])
    }
}
