/// The Services view of the top-left pane (`v` after Traces): the service map as a list of edges, one per pair of
/// services where a span of the first has a child span of the second, by caller then callee. Each row: caller, an
/// arrow, callee, then calls per second and the share that failed over the last minute, the callee's p50, p95 and
/// p99 durations and the calls counted in all. The query's `service:` and words narrow it (either end); `Enter`
/// opens the Traces view narrowed to traces of both services.
public enum ServicesPane: Widget {
    public static func part(of state: DashboardState) -> FeedsState { state.feeds }

    /// The type filter does not apply: calls have no error type.
    public static func render(_ input: WidgetInput<ServicesPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (feeds, screen, palette) = (input.part, input.screen, input.palette)
        let edges = feeds.visibleEdges(input.filter)
        let selected = screen.focus == .errors ? feeds.selectedEdgeIndex(in: edges) : nil
        let (inner, start) = ErrorsPane.frameList(
            "Services", count: edges.count, total: feeds.metrics.serviceEdges.count, noun: ("edge", "edges"),
            scroll: 0, selected: selected, screen: screen, in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if edges.isEmpty {
            let text =
                feeds.metrics.serviceEdges.isEmpty
                ? "No calls between services yet: a span whose parent is another service's span is one."
                : "No service calls match the query."
            for (row, line) in DetailView.wrap(text, width: max(1, inner.width - 2)).prefix(inner.height).enumerated() {
                buffer.write(line, x: inner.x + 1, y: inner.y + row, width: inner.width - 1, style: palette[.muted])
            }
            return
        }
        let shown = start..<min(edges.count, start + inner.height)
        let arrow = screen.unicode ? " → " : " -> "
        let x = inner.x + 1
        let width = inner.width - 2
        // The names take what the values leave, at most the longest pair shown, at least a third of the row.
        let valueLists = edges[shown].map(values(of:))
        let longestValues = valueLists.map { itemsWidth($0) }.max() ?? 0
        let longestNames =
            edges[shown].map { DisplayWidth.of($0.caller) + DisplayWidth.of(arrow) + DisplayWidth.of($0.callee) }.max()
            ?? 0
        let nameWidth = max(min(longestNames, width / 3 * 2), min(longestNames, width - longestValues - 1))
        ErrorsPane.drawRows(shown, selected: selected, in: inner, into: &buffer, palette: palette) { index, y, buffer in
            let edge = edges[index]
            let row = Rect(x: x, y: y, width: width, height: 1)
            let names = Rect(x: x, y: y, width: nameWidth, height: 1)
            // Each name gets half the room when both do not fit.
            let half = max(1, (nameWidth - DisplayWidth.of(arrow)) / 2)
            let callerWidth = min(
                DisplayWidth.of(edge.caller),
                max(half, nameWidth - DisplayWidth.of(arrow) - DisplayWidth.of(edge.callee)))
            buffer.write(edge.caller, x: x, y: y, width: max(1, callerWidth), style: palette[.text], padding: false)
            var column = buffer.write(arrow, x: x + callerWidth, y: y, style: palette[.muted], clip: names)
            let failing = edge.errorRatio > 0
            buffer.write(
                edge.callee, x: column, y: y, width: max(0, names.maxX - column),
                style: failing ? palette[.alert] : palette[.text], padding: false)
            var items = valueLists[index - shown.lowerBound]
            while items.count > 1, itemsWidth(items) > width - nameWidth - 1 { items.removeLast() }
            column = max(x + nameWidth + 1, x + width - itemsWidth(items))
            for (number, (label, value)) in items.enumerated() {
                if number > 0 { column = buffer.write(" ", x: column, y: y, style: palette[.muted], clip: row) }
                if !label.isEmpty {
                    column = buffer.write(label + " ", x: column, y: y, style: palette[.muted], clip: row)
                }
                let style = label == "err" && failing ? palette[.alert] : palette[.title]
                column = buffer.write(value, x: column, y: y, style: style, clip: row)
            }
        }
    }

    /// The labelled values of an edge: rate, error share, p50, p95, p99 and calls in all.
    static func values(of edge: ServiceEdge) -> [(String, String)] {
        [
            ("", Format.number(edge.ratePerSecond) + "/s"),
            ("err", Format.fixed(edge.errorRatio * 100, 1) + "%"),
            ("p50", edge.p50.map { Format.measurement($0, unit: "ms") } ?? "–"),
            ("p95", edge.p95.map { Format.measurement($0, unit: "ms") } ?? "–"),
            ("p99", edge.p99.map { Format.measurement($0, unit: "ms") } ?? "–"),
            ("n", Format.count(edge.calls)),
        ]
    }

    /// The columns `items` take, one blank between them.
    private static func itemsWidth(_ items: [(String, String)]) -> Int {
        items.reduce(-1) { $0 + 1 + ($1.0.isEmpty ? 0 : DisplayWidth.of($1.0) + 1) + DisplayWidth.of($1.1) }
    }
}
