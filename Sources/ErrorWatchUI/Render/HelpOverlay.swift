/// The `?` overlay: a centred box listing every binding in force, the dashboard's keys and each attached app's.
/// Two columns when there is room, one otherwise; rows that do not fit are cut with a `…` line.
public enum HelpOverlay {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        // The dashboard's keys on the left; the attached apps' keys (or, without any, the legend) on the right.
        let apps = state.apps.filter { !$0.bindings.isEmpty }
        let sections = [
            ("Dashboard", Keymap.standard.dashboardBindings),
            (apps.count == 1 ? apps[0].title : "Apps", apps.flatMap(\.bindings)),
        ]
        func widths(_ list: [KeyBinding]) -> (key: Int, column: Int) {
            let key = list.map { DisplayWidth.of($0.keyLabel) }.max() ?? 1
            return (key, 2 + key + 2 + (list.map { DisplayWidth.of($0.summary) }.max() ?? 1))
        }
        let left = widths(sections[0].1)
        var right = widths(sections[1].1)
        if apps.isEmpty { right.column = 7 + (legend(state).map { DisplayWidth.of($0.2) }.max() ?? 1) }
        let twoColumns = area.width >= left.column + right.column + 3 + 4
        let contentWidth =
            twoColumns ? left.column + 3 + right.column : min(max(left.column, right.column), area.width - 4)
        let rowsNeeded =
            twoColumns
            ? sections.map { $0.1.count + 1 }.max()!
            : sections[0].1.count + 1 + (apps.isEmpty ? 0 : sections[1].1.count + 2)
        let box = Rect(
            x: area.x + max(0, (area.width - contentWidth - 4) / 2),
            y: area.y + max(0, (area.height - rowsNeeded - 3) / 2),
            width: min(area.width, contentWidth + 4), height: min(area.height, rowsNeeded + 3))
        guard box.width >= 10, box.height >= 4 else { return }
        let background = palette[.help]
        buffer.fill(box, style: background)
        buffer.drawBox(
            box, title: "Help · keys", borderStyle: palette[.focusedBorder].on(background),
            titleStyle: palette[.focusedTitle], unicode: state.unicode)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        buffer.write(
            "Esc or ? closes", x: box.maxX - 19, y: box.maxY - 1, style: palette[.muted].on(background),
            clip: Rect(x: box.x + 1, y: box.maxY - 1, width: box.width - 2, height: 1))
        var lines: [[(String, CellStyle, Int)]] = []
        func entries(_ title: String, _ bindings: [KeyBinding], keyWidth: Int) -> [[(String, CellStyle, Int)]] {
            [[(title, palette[.title].on(background).adding(.underline), 0)]]
                + bindings.map {
                    [
                        ("  " + $0.keyLabel, palette[.footerKey].on(background), 0),
                        ($0.summary, palette[.text].on(background), 2 + keyWidth + 2),
                    ]
                }
        }
        let dashboard = entries(sections[0].0, sections[0].1, keyWidth: left.key)
        let demo =
            apps.isEmpty ? [] : entries(sections[1].0, sections[1].1, keyWidth: twoColumns ? right.key : left.key)
        if twoColumns {
            // The right column is shorter: use the room for a legend of the glyphs the panes use.
            var demo = demo
            if dashboard.count >= demo.count + 2 + legend(state).count {
                if !demo.isEmpty { demo += [[]] }
                demo += [[("Legend", palette[.title].on(background).adding(.underline), 0)]]
                demo += legend(state).map { glyph, role, text in
                    [("  " + glyph, palette[role].on(background), 0), (text, palette[.text].on(background), 7)]
                }
            }
            for index in 0..<max(dashboard.count, demo.count) {
                let l = index < dashboard.count ? dashboard[index] : []
                let r = index < demo.count ? demo[index].map { ($0.0, $0.1, $0.2 + left.column + 3) } : []
                lines.append(l + r)
            }
        } else {
            lines = dashboard + (demo.isEmpty ? [] : [[]] + demo)
        }
        for (row, line) in lines.enumerated() where row < inner.height {
            let y = inner.y + row
            if row == inner.height - 1, lines.count > inner.height {
                buffer.write(
                    "… (\(lines.count - row) more; enlarge the terminal)", x: inner.x, y: y,
                    width: inner.width, style: palette[.muted].on(background))
                break
            }
            for (text, style, offset) in line where offset < inner.width {
                buffer.write(text, x: inner.x + offset, y: y, width: inner.width - offset, style: style, padding: false)
            }
        }
    }

    /// Glyph, role and meaning of the marks drawn in the panes.
    static func legend(_ state: DashboardState) -> [(String, ThemeRole, String)] {
        let u = state.unicode
        return [
            (u ? "●" : "*", .severityError, "alert, coloured by severity"),
            (u ? "×12" : "x12", .alert, "errors coalesced in one alert"),
            ("bg ·", .muted, "background: logged, no alert"),
            (u ? "▸3" : ">3", .filter, "type 3 filter is on (Metrics)"),
            (u ? "⣀⣤⣶⣿" : ".:=@", .sparkline, "errors per second, last 60 s"),
        ]
    }
}
