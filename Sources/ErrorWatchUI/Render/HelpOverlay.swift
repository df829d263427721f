/// The `?` overlay: a centred box listing every binding of the keymap, dashboard keys and demo triggers.
/// Two columns when there is room, one otherwise; rows that do not fit are cut with a `…` line.
public enum HelpOverlay {
    public static func render(_ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette) {
        let keymap = Keymap.standard
        let sections = [("Dashboard", keymap.dashboardBindings), ("Demo app", keymap.demoBindings)]
        let keyWidth = keymap.bindings.map { DisplayWidth.of($0.keyLabel) }.max() ?? 8
        let summaryWidth = keymap.bindings.map { DisplayWidth.of($0.summary) }.max() ?? 20
        let columnWidth = 2 + keyWidth + 2 + summaryWidth
        let twoColumns = area.width >= 2 * columnWidth + 7
        let contentWidth = twoColumns ? 2 * columnWidth + 3 : min(columnWidth, area.width - 4)
        let rowsNeeded = twoColumns
            ? sections.map { $0.1.count + 1 }.max()! : sections.reduce(0) { $0 + $1.1.count + 2 } - 1
        let box = Rect(
            x: area.x + max(0, (area.width - contentWidth - 4) / 2),
            y: area.y + max(0, (area.height - rowsNeeded - 4) / 2),
            width: min(area.width, contentWidth + 4), height: min(area.height, rowsNeeded + 4))
        guard box.width >= 10, box.height >= 4 else { return }
        let background = palette[.help]
        buffer.fill(box, style: background)
        buffer.drawBox(box, title: "Help · keys", borderStyle: palette[.focusedBorder].on(background),
            titleStyle: palette[.focusedTitle], unicode: state.unicode)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 3)
        buffer.write("Esc or ? closes", x: box.maxX - 19, y: box.maxY - 1, style: palette[.muted].on(background),
            clip: Rect(x: box.x + 1, y: box.maxY - 1, width: box.width - 2, height: 1))
        var lines: [[(String, CellStyle, Int)]] = []
        func entries(_ title: String, _ bindings: [KeyBinding]) -> [[(String, CellStyle, Int)]] {
            [[(title, palette[.title].on(background).adding(.underline), 0)]]
                + bindings.map { [("  " + $0.keyLabel, palette[.footerKey].on(background), 0),
                    ($0.summary, palette[.text].on(background), 2 + keyWidth + 2)] }
        }
        if twoColumns {
            let left = entries(sections[0].0, sections[0].1)
            let right = entries(sections[1].0, sections[1].1)
            for index in 0..<max(left.count, right.count) {
                let l = index < left.count ? left[index] : []
                let r = index < right.count ? right[index].map { ($0.0, $0.1, $0.2 + columnWidth + 3) } : []
                lines.append(l + r)
            }
        } else {
            lines = entries(sections[0].0, sections[0].1) + [[]] + entries(sections[1].0, sections[1].1)
        }
        for (row, line) in lines.enumerated() where row < inner.height {
            let y = inner.y + row
            if row == inner.height - 1, lines.count > inner.height {
                buffer.write("… (\(lines.count - row) more; enlarge the terminal)", x: inner.x, y: y,
                    width: inner.width, style: palette[.muted].on(background))
                break
            }
            for (text, style, offset) in line where offset < inner.width {
                buffer.write(text, x: inner.x + offset, y: y, width: inner.width - offset, style: style, padding: false)
            }
        }
    }
}
