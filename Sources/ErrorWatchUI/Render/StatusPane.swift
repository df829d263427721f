import ErrorStreaming

/// The `Status` pane: one row per named status that producers publish (the demo's login, session and sync; a
/// server's reconciler), with its health, name, state, detail and how long ago it changed. Statuses of other
/// services are named `service/name` when more than one service publishes.
public enum StatusPane: Widget {
    public static func part(of state: DashboardState) -> FeedsState { state.feeds }

    public static func render(_ input: WidgetInput<StatusPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (feeds, screen, palette) = (input.part, input.screen, input.palette)
        let inner = Dashboard.frame(.status, screen: screen, in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if feeds.statuses.isEmpty {
            buffer.write(
                "No statuses published.", x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        // Names are qualified when more than one service publishes (no set made: this is drawn every frame).
        let firstService = feeds.statuses[0].service ?? ""
        let qualify = feeds.statuses.contains { ($0.service ?? "") != firstService }
        func label(_ status: StatusEntry) -> String {
            guard qualify, let service = status.service, !service.isEmpty else { return status.name }
            return service + "/" + status.name
        }
        let overflow = feeds.statuses.count > inner.height
        let shown = feeds.statuses.prefix(overflow ? max(0, inner.height - 1) : inner.height)
        let stateWidth = min(max(8, inner.width / 3), 20, shown.map { DisplayWidth.of($0.state) }.max() ?? 8)
        // A name takes what it needs while the state and a dozen columns of detail and age keep theirs.
        let nameRoom = max(qualify ? 22 : 12, inner.width - 3 - 1 - stateWidth - 1 - 12)
        let nameWidth = min(nameRoom, shown.map { DisplayWidth.of(label($0)) }.max() ?? 4)
        for (row, status) in shown.enumerated() {
            let y = inner.y + row
            let health = palette.style(for: status.health)
            buffer.write(
                status.health.glyph(unicode: screen.unicode), x: inner.x + 1, y: y, width: 2, style: health)
            var column = inner.x + 3
            buffer.write(
                label(status), x: column, y: y, width: min(nameWidth, inner.maxX - column), style: palette[.title])
            column += nameWidth + 1
            guard column < inner.maxX else { continue }
            buffer.write(status.state, x: column, y: y, width: min(stateWidth, inner.maxX - column), style: health)
            column += stateWidth + 1
            let age = Format.age(screen.now.timeIntervalSince(status.changedAt))
            let ageWidth = age.count + 1
            guard column < inner.maxX - ageWidth else { continue }
            buffer.write(
                status.detail, x: column, y: y, width: inner.maxX - column - ageWidth, style: palette[.muted])
            buffer.write(" " + age, x: inner.maxX - ageWidth, y: y, width: ageWidth, style: palette[.muted])
        }
        if overflow {
            buffer.write(
                "+\(feeds.statuses.count - shown.count) more", x: inner.x + 3, y: inner.y + shown.count,
                width: inner.width - 3, style: palette[.muted])
        }
    }
}

extension StatusHealth {
    /// The glyph drawn before a status or a source: `●` ok, `◐` degraded, `✗` failing, `○` idle (`+ ~ x -` in ASCII).
    public func glyph(unicode: Bool) -> String {
        switch self {
        case .ok: unicode ? "●" : "+"
        case .degraded: unicode ? "◐" : "~"
        case .failing: unicode ? "✗" : "x"
        case .idle: unicode ? "○" : "-"
        }
    }
}
