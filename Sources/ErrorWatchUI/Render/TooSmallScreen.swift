/// What is drawn when the terminal is smaller than ``DashboardState/minimumSize``.
public enum TooSmallScreen: Widget {
    /// Nothing of the state but the screen: the size it reports is the area's.
    public static func part(of state: DashboardState) {}

    public static func render(_ input: WidgetInput<TooSmallScreen>, in area: Rect, into buffer: inout ScreenBuffer) {
        let palette = input.palette
        let minimum = DashboardState.minimumSize
        let times = input.screen.unicode ? "×" : "x"
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
