/// The `Flows` pane: one row per simulated flow (login, session, background sync) with its health, state, last
/// outcome and how long ago it changed.
public enum FlowsPane {
    /// Draws into `area` of `buffer`, clearing it first; nothing outside `area` is touched.
    public static func render(
        _ state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let inner = Dashboard.frame(.flows, state: state, in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if state.flows.isEmpty {
            buffer.write(
                "No flows running.", x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let shown = state.flows.prefix(inner.height)
        let nameWidth = min(10, shown.map { DisplayWidth.of($0.name) }.max() ?? 4)
        let stateWidth = min(max(8, inner.width / 3), 20, shown.map { DisplayWidth.of($0.state) }.max() ?? 8)
        for (row, flow) in shown.enumerated() {
            let y = inner.y + row
            let health = palette.style(for: flow.health)
            buffer.write(flow.health.glyph(unicode: state.unicode), x: inner.x + 1, y: y, width: 2, style: health)
            var column = inner.x + 3
            buffer.write(flow.name, x: column, y: y, width: min(nameWidth, inner.maxX - column), style: palette[.title])
            column += nameWidth + 1
            guard column < inner.maxX else { continue }
            buffer.write(flow.state, x: column, y: y, width: min(stateWidth, inner.maxX - column), style: health)
            column += stateWidth + 1
            let age = Format.age(state.now.timeIntervalSince(flow.lastChange))
            let ageWidth = age.count + 1
            guard column < inner.maxX - ageWidth else { continue }
            buffer.write(
                flow.lastOutcome, x: column, y: y, width: inner.maxX - column - ageWidth, style: palette[.muted])
            buffer.write(" " + age, x: inner.maxX - ageWidth, y: y, width: ageWidth, style: palette[.muted])
        }
    }
}

extension FlowStatus.Health {
    /// The glyph drawn before a flow or a source: `●` ok, `◐` degraded, `✗` failing, `○` idle (`+ ~ x -` in ASCII).
    public func glyph(unicode: Bool) -> String {
        switch self {
        case .ok: unicode ? "●" : "+"
        case .degraded: unicode ? "◐" : "~"
        case .failing: unicode ? "✗" : "x"
        case .idle: unicode ? "○" : "-"
        }
    }
}
