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
