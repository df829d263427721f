import Foundation

/// The `Errors` pane, in one of three views (`v` cycles):
///
/// - **Alerts**: what users were told, coalesced with counts, newest first. Each row: severity marker, title and
///   `×12`, code, category, age relative to `screen.now`. An alert not seen for
///   ``DashboardState/alertFadeAfter`` seconds is drawn dimmed. Background-origin errors never get here.
/// - **Issues**: every error, background included, grouped by fingerprint: type, code, exact count, services,
///   first and last seen, and a sparkline of the last 60 s; by last seen or count (`O`).
/// - **Patterns**: the templates of every line (``PatternsPane``).
/// - **Traces**: every trace the trace store holds (``TracesPane``).
/// - **Services**: the service map, which service calls which (``ServicesPane``).
///
/// With the pane focused, the selected row (the newest until the user moves) is highlighted; `Enter` opens it.
public enum ErrorsPane: Widget {
    /// The Errors slice; the other views read their own parts.
    public static func part(of state: DashboardState) -> ErrorsState { state.errors }

    public static func render(_ input: WidgetInput<ErrorsPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let errors = input.part
        switch errors.view {
        case .services:
            ServicesPane.render(input.handed(to: ServicesPane.self), in: area, into: &buffer)
        case .traces:
            TracesPane.render(input.handed(to: TracesPane.self), in: area, into: &buffer)
        case .patterns:
            PatternsPane.render(input.handed(to: PatternsPane.self), in: area, into: &buffer)
        case .issues:
            renderIssues(input, in: area, into: &buffer)
        case .alerts:
            let (filter, screen, palette) = (input.filter, input.screen, input.palette)
            let alerts = errors.visibleAlerts(filter)
            let selected = selectedIndex(errors, screen: screen, fingerprints: alerts.map(\.fingerprint))
            let (inner, start) = frameList(
                "Alerts", count: alerts.count, total: errors.alerts.count, noun: ("alert", "alerts"),
                scroll: errors.scroll, selected: selected, screen: screen, in: area, into: &buffer, palette: palette)
            guard !inner.isEmpty else { return }
            if alerts.isEmpty {
                let text = errors.alerts.isEmpty ? "No alerts. All quiet." : "No alerts match the filters."
                buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
                return
            }
            let wide = inner.width >= 60
            let shown = start..<min(start + inner.height, alerts.count)
            // As wide as the longest code shown (`D-40001` is seven), so that codes are never cut and the columns
            // align.
            let codeWidth = min(16, max(6, alerts[shown].map { DisplayWidth.of($0.shownCode) }.max() ?? 0))
            drawRows(shown, selected: selected, in: inner, into: &buffer, palette: palette) { index, y, buffer in
                drawRow(
                    alerts[index], screen: screen, x: inner.x, y: y, width: inner.width, wide: wide,
                    codeWidth: codeWidth, into: &buffer, palette: palette)
            }
        }
    }

    /// Draws the pane's border titled `title` around a list of `count` rows that pass the filters (`total` in all),
    /// scrolled to `scroll` and moved to keep row `selected` in view; the label says which rows are shown (then
    /// what `note` adds). Returns the area inside and the first row shown.
    static func frameList(
        _ title: String, count: Int, total: Int, noun: (String, String), scroll: Int, selected: Int?,
        note: (String) -> String = { $0 }, screen: ScreenState, in area: Rect, into buffer: inout ScreenBuffer,
        palette: Palette
    ) -> (inner: Rect, start: Int) {
        let rows = max(0, area.height - 2)
        let start = firstRow(scroll: scroll, count: count, rows: rows, selected: selected)
        let text = label(screen, shown: start..<min(count, start + rows), matching: count, total: total, noun: noun)
        let inner = Dashboard.frame(
            .errors, screen: screen, in: area, into: &buffer, palette: palette, label: note(text), title: title)
        return (inner, start)
    }

    /// Draws the rows `shown` of a list, one a line from the top of `inner` (`draw` takes the row's index and its
    /// line), the `selected` one highlighted.
    static func drawRows(
        _ shown: Range<Int>, selected: Int?, in inner: Rect, into buffer: inout ScreenBuffer, palette: Palette,
        _ draw: (Int, Int, inout ScreenBuffer) -> Void
    ) {
        for index in shown {
            let y = inner.y + index - shown.lowerBound
            draw(index, y, &buffer)
            if index == selected { highlight(Rect(x: inner.x, y: y, width: inner.width, height: 1), &buffer, palette) }
        }
    }

    /// The first row shown: the scroll position, moved so that the selection stays on screen when rows arrive above
    /// it or the Issues view re-sorts.
    static func firstRow(scroll: Int, count: Int, rows: Int, selected: Int?) -> Int {
        var start = min(scroll, max(0, count - rows))
        if let selected, rows > 0 {
            if selected < start { start = selected }
            if selected >= start + rows { start = selected - rows + 1 }
        }
        return max(0, start)
    }

    /// The selected row, when the pane is focused: the selected fingerprint's, else the first.
    static func selectedIndex(_ errors: ErrorsState, screen: ScreenState, fingerprints: [String]) -> Int? {
        guard screen.focus == .errors, !fingerprints.isEmpty else { return nil }
        return errors.selectedFingerprint.flatMap { fingerprints.firstIndex(of: $0) } ?? 0
    }

    /// Draws the selection over an already drawn row: the selection colours, keeping the text.
    static func highlight(_ row: Rect, _ buffer: inout ScreenBuffer, _ palette: Palette) {
        let selection = palette[.selection]
        buffer.restyle(row) { style in
            style = style.on(selection).adding(.bold)
            if style.foreground == selection.background { style.foreground = selection.foreground }
        }
    }

    /// The Issues view.
    static func renderIssues(_ input: WidgetInput<ErrorsPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (errors, screen, palette) = (input.part, input.screen, input.palette)
        let issues = errors.visibleIssues(input.filter, at: screen.now)
        let selected = selectedIndex(errors, screen: screen, fingerprints: issues.map(\.fingerprint))
        let (inner, start) = frameList(
            "Issues", count: issues.count, total: errors.issues.count, noun: ("issue", "issues"),
            scroll: errors.scroll, selected: selected,
            note: { $0.isEmpty ? $0 : $0 + " · by \(errors.issueOrder.rawValue)" }, screen: screen, in: area,
            into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if issues.isEmpty {
            let text = errors.issues.isEmpty ? "No errors yet." : "No issues match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let shown = start..<min(issues.count, start + inner.height)
        let codeWidth = min(16, max(6, issues[shown].map { DisplayWidth.of($0.shownCode) }.max() ?? 0))
        drawRows(shown, selected: selected, in: inner, into: &buffer, palette: palette) { index, y, buffer in
            drawIssue(
                issues[index], screen: screen, x: inner.x, y: y, width: inner.width, codeWidth: codeWidth,
                into: &buffer, palette: palette)
        }
    }

    /// One issue: marker, type, services, then on the right count, code, sparkline, first and last seen.
    static func drawIssue(
        _ issue: IssueRecord, screen: ScreenState, x: Int, y: Int, width: Int, codeWidth: Int = 6,
        into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let severity = palette.style(for: issue.severity)
        let row = Rect(x: x, y: y, width: width, height: 1)
        buffer.write(screen.unicode ? "●" : "*", x: x, y: y, style: severity, clip: row)
        let count = Format.count(issue.count)
        let sparkWidth = width >= 100 ? 20 : width >= 80 ? 12 : 0
        // Right-hand columns: count (8), code (`codeWidth` and a space), sparkline, first (5), last (5).
        let right = 8 + codeWidth + 1 + (sparkWidth > 0 ? sparkWidth + 1 : 0) + (width >= 60 ? 5 : 0) + 5
        let leftWidth = max(4, width - 2 - right)
        // What failed: the type and the latest occurrence's words (a log-derived error's own sentence first).
        let what = issue.latestWords.map { issue.typeName + ": " + $0 } ?? issue.typeName
        let column = buffer.write(
            DisplayWidth.truncate(triageBadge(issue, now: screen.now) + what, to: leftWidth), x: x + 2, y: y,
            style: palette[.text],
            clip: Rect(x: x, y: y, width: 2 + leftWidth, height: 1))
        if !issue.services.isEmpty, column < x + 2 + leftWidth {
            buffer.write(
                " · " + issue.services.joined(separator: ", "), x: column, y: y,
                width: x + 2 + leftWidth - column, style: palette[.muted])
        }
        var at = x + width - right
        guard at > x + 2 else { return }
        buffer.write(
            String(repeating: " ", count: max(0, 8 - count.count - 1)) + count + " ", x: at, y: y, width: 8,
            style: palette[.alert])
        at += 8
        buffer.write(
            DisplayWidth.truncate(issue.shownCode, to: codeWidth), x: at, y: y, width: codeWidth + 1, style: severity)
        drawTimes(
            issue.perSecond(endingAt: screen.now), first: issue.firstSeen, last: issue.lastSeen,
            sparkWidth: sparkWidth, x: at + codeWidth + 1, y: y, width: width, screen: screen, into: &buffer,
            palette: palette)
    }

    /// The last columns of an Issues or Patterns row, from column `x`: the sparkline of the last minute
    /// (`sparkWidth` wide; none when 0), how long ago it was first seen (in a row of 60 columns or more) and how long
    /// ago it was last seen.
    static func drawTimes(
        _ perSecond: some RandomAccessCollection<Int>, first: Date, last: Date, sparkWidth: Int, x: Int, y: Int,
        width: Int, screen: ScreenState, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        var at = x
        if sparkWidth > 0 {
            Sparkline.draw(
                perSecond, width: sparkWidth, unicode: screen.unicode, x: at, y: y, style: palette[.sparkline],
                into: &buffer)
            at += sparkWidth + 1
        }
        // Each age right-aligned in four columns, written in pieces (blanks, the age, a blank) as the joined text
        // would be: every list row draws two.
        func age(_ time: Date, trailingBlank: Bool, style: CellStyle) {
            let text = Format.age(screen.now.timeIntervalSince(time))
            var run = TextRun(x: at, y: y, width: 5, style: style)
            run.append("    ".prefix(max(0, 4 - text.count)), into: &buffer)
            run.append(text, into: &buffer)
            if trailingBlank { run.append(" ", into: &buffer) }
            run.finish(into: &buffer)
        }
        if width >= 60 {
            age(first, trailingBlank: false, style: palette[.muted])
            at += 5
        }
        age(last, trailingBlank: true, style: palette[.text])
    }

    /// `5 alerts`, `1–3 of 5 alerts` when some are scrolled out of view, `2 of 5 alerts` when filtered.
    static func label(
        _ screen: ScreenState, shown: Range<Int>, matching: Int, total: Int, noun nouns: (String, String)
    ) -> String {
        guard total > 0 else { return "" }
        let noun = total == 1 ? nouns.0 : nouns.1
        let dash = screen.unicode ? "–" : "-"
        let range = shown.count < matching ? "\(shown.lowerBound + 1)\(dash)\(shown.upperBound) of " : ""
        if matching < total { return range.isEmpty ? "\(matching) of \(total) \(noun)" : range + "\(matching) shown" }
        return range.isEmpty ? "\(total) \(noun)" : range + "\(total) \(noun)"
    }

    static func drawRow(
        _ alert: AlertRecord, screen: ScreenState, x: Int, y: Int, width: Int, wide: Bool, codeWidth: Int = 6,
        into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let age = screen.now.timeIntervalSince(alert.lastReceived)
        let faded = age > DashboardState.alertFadeAfter
        let dim: CellAttributes = faded ? .dim : []
        let severity = palette.style(for: alert.severity).adding(dim)
        let ageText = Format.age(age)
        let code = alert.shownCode
        let category = wide ? alert.category?.label ?? "—" : ""
        // Right-hand columns: code (`codeWidth`), category (15 on wide panes), age (4), each after one space.
        let rightWidth = codeWidth + 1 + (wide ? 16 : 0) + 5
        let titleWidth = max(0, width - 2 - rightWidth)
        buffer.write(screen.unicode ? "●" : "*", x: x, y: y, style: severity, clip: nil)
        var column = x + 2
        let count = alert.count > 1 ? (screen.unicode ? " ×" : " x") + Format.count(alert.count) : ""
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
        buffer.write(" " + code, x: right, y: y, width: codeWidth + 1, style: severity)
        right += codeWidth + 1
        if wide {
            buffer.write(
                " " + category, x: right, y: y, width: 16,
                style: (alert.category.map { palette.style(for: $0) } ?? palette[.muted]).adding(dim))
            right += 16
        }
        let padded = String(repeating: " ", count: max(0, 4 - ageText.count)) + ageText
        buffer.write(" " + padded, x: right, y: y, width: 5, style: palette[.muted])
    }
}
