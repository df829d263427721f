/// The `?` overlay: a centred box listing every binding in force, the dashboard's keys and each attached app's.
/// Two columns when there is room, one otherwise; when the rows do not fit, the last row says which are shown and
/// the detail view's keys (`j` `k` `↑` `↓` PgUp PgDn `g` `G`) scroll them.
public enum HelpOverlay: Widget {
    /// The attached apps' keys come from the feeds.
    public static func part(of state: DashboardState) -> FeedsState { state.feeds }

    /// Draws the box centred in `area`; nothing outside the box is touched.
    public static func render(_ input: WidgetInput<HelpOverlay>, in area: Rect, into buffer: inout ScreenBuffer) {
        let palette = input.palette
        // The dashboard's keys on the left; on the right the attached apps' keys, the query syntax, and a legend
        // of the panes' glyphs when there is room. One column on narrow terminals.
        let apps = input.part.apps.filter { !$0.bindings.isEmpty }
        let syntax = QuerySyntax.lines.map {
            KeyBinding(keys: [], keyLabel: $0.syntax, command: .dashboard(.beginTextFilter), summary: $0.meaning)
        }
        var leftSections = [("Dashboard", Keymap.standard.dashboardBindings)]
        var rightSections: [(String, [KeyBinding])] = []
        if !apps.isEmpty { rightSections.append((apps.count == 1 ? apps[0].title : "Apps", apps.flatMap(\.bindings))) }
        rightSections.append(("Query, after /", syntax))
        func widths(_ sections: [(String, [KeyBinding])]) -> (key: Int, column: Int) {
            let list = sections.flatMap(\.1)
            let key = list.map { DisplayWidth.of($0.keyLabel) }.max() ?? 1
            let titles = sections.map { DisplayWidth.of($0.0) }.max() ?? 1
            return (key, max(titles, 2 + key + 2 + (list.map { DisplayWidth.of($0.summary) }.max() ?? 1)))
        }
        let left = widths(leftSections)
        let right = widths(rightSections)
        // Two columns whenever the apps' keys fit beside the dashboard's; the query syntax's longer lines are cut
        // at the box's edge on narrow terminals rather than pushing everything into one long column.
        let available = area.width - 4 - left.column - 3
        let appsOnly = widths(Array(rightSections.dropLast())).column
        let twoColumns = available >= max(appsOnly, 24)
        let rightColumn = min(right.column, max(0, available))
        if !twoColumns {
            leftSections += rightSections
            rightSections = []
        }
        let leftWidth = twoColumns ? left : widths(leftSections)
        let contentWidth = twoColumns ? left.column + 3 + rightColumn : min(leftWidth.column, area.width - 4)
        func height(_ sections: [(String, [KeyBinding])]) -> Int {
            sections.reduce(0) { $0 + $1.1.count + 1 } + max(0, sections.count - 1)
        }
        let rowsNeeded = max(height(leftSections), height(rightSections))
        let box = Rect(
            x: area.x + max(0, (area.width - contentWidth - 4) / 2),
            y: area.y + max(0, (area.height - rowsNeeded - 3) / 2),
            width: min(area.width, contentWidth + 4), height: min(area.height, rowsNeeded + 3))
        guard box.width >= 10, box.height >= 4 else { return }
        let background = palette[.help]
        buffer.fill(box, style: background)
        buffer.drawBox(
            box, title: "Help · keys", borderStyle: palette[.focusedBorder].on(background),
            titleStyle: palette[.focusedTitle], unicode: input.screen.unicode)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        buffer.write(
            "Esc or ? closes", x: box.maxX - 19, y: box.maxY - 1, style: palette[.muted].on(background),
            clip: Rect(x: box.x + 1, y: box.maxY - 1, width: box.width - 2, height: 1))
        var lines: [[(String, CellStyle, Int)]] = []
        func entries(_ sections: [(String, [KeyBinding])], keyWidth: Int) -> [[(String, CellStyle, Int)]] {
            var result: [[(String, CellStyle, Int)]] = []
            for (index, (title, bindings)) in sections.enumerated() {
                if index > 0 { result.append([]) }
                // Each section aligns its own summaries: one-letter keys need no room for `level:warning+`.
                let keyWidth = min(keyWidth, bindings.map { DisplayWidth.of($0.keyLabel) }.max() ?? 1)
                result.append([(title, palette[.title].on(background).adding(.underline), 0)])
                result += bindings.map {
                    [
                        ("  " + $0.keyLabel, palette[.footerKey].on(background), 0),
                        ($0.summary, palette[.text].on(background), 2 + keyWidth + 2),
                    ]
                }
            }
            return result
        }
        let leftLines = entries(leftSections, keyWidth: leftWidth.key)
        if twoColumns {
            var rightLines = entries(rightSections, keyWidth: right.key)
            // The right column is shorter: use the room for a legend of the glyphs the panes use.
            if leftLines.count >= rightLines.count + 2 + legend(input).count {
                rightLines += [[], [("Legend", palette[.title].on(background).adding(.underline), 0)]]
                rightLines += legend(input).map { glyph, role, text in
                    [("  " + glyph, palette[role].on(background), 0), (text, palette[.text].on(background), 7)]
                }
            }
            for index in 0..<max(leftLines.count, rightLines.count) {
                let l = index < leftLines.count ? leftLines[index] : []
                let r = index < rightLines.count ? rightLines[index].map { ($0.0, $0.1, $0.2 + left.column + 3) } : []
                lines.append(l + r)
            }
        } else {
            lines = leftLines
        }
        // Too many rows: the last row of the box says where the view is, and the keys scroll the rest into view.
        let scrolls = lines.count > inner.height
        let rows = scrolls ? max(1, inner.height - 1) : inner.height
        let first = scrolls ? input.screen.helpScroll.offset(lines: lines.count, rows: rows) : 0
        for (row, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let y = inner.y + row
            for (text, style, offset) in line where offset < inner.width {
                buffer.write(text, x: inner.x + offset, y: y, width: inner.width - offset, style: style, padding: false)
            }
        }
        if scrolls, inner.height > 1 {
            let last = min(lines.count, first + rows)
            let unicode = input.screen.unicode
            let keys = unicode ? "j k ↑ ↓ PgUp PgDn g G" : "j k PgUp PgDn g G"
            let (dash, dot) = unicode ? ("–", "·") : ("-", "-")
            buffer.write(
                "rows \(first + 1)\(dash)\(last) of \(lines.count) \(dot) \(keys) scroll", x: inner.x,
                y: inner.y + rows, width: inner.width, style: palette[.muted].on(background))
        }
    }

    /// Glyph, role and meaning of the marks drawn in the panes.
    static func legend(_ input: WidgetInput<HelpOverlay>) -> [(String, ThemeRole, String)] {
        let u = input.screen.unicode
        return [
            (u ? "●" : "*", .severityError, "alert, coloured by severity"),
            (u ? "×12" : "x12", .alert, "errors coalesced in one alert"),
            ("bg ·", .muted, "background: logged, no alert"),
            (u ? "▸3" : ">3", .filter, "type 3 filter is on (Metrics)"),
            (u ? "⣀⣤⣶⣿" : ".:=@", .sparkline, "errors per second, last 60 s"),
        ]
    }
}
