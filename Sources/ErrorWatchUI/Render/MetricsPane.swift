import ErrorStreaming

/// The `Metrics` pane: totals, the error-rate sparkline over the last 60 s, what the producers record (histograms
/// with percentiles, gauges, counters with their rate; the most recently updated first), then error counts per type
/// (numbered 1…9 for the type filter keys) and per category. While the pane has the focus, `j`/`k` select a series
/// (highlighted, and kept in view; the rows hold still, see ``FeedsState``) and `Enter` opens its chart.
public enum MetricsPane: Widget {
    /// The sample, and the selected series' index while the pane has the focus.
    public static func part(of state: DashboardState) -> (metrics: MetricsSnapshot, selected: Int?) {
        (state.feeds.metrics, state.screen.focus == .metrics ? state.feeds.selectedSeriesIndex : nil)
    }

    public static func render(_ input: WidgetInput<MetricsPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (part, filter, screen, palette) = (input.part, input.filter, input.screen, input.palette)
        let (metrics, selected) = (part.metrics, part.selected)
        let inner = Dashboard.frame(.metrics, screen: screen, in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        let m = metrics
        var y = inner.y
        let x = inner.x + 1
        let width = inner.width - 1
        func line(_ draw: (inout ScreenBuffer, Rect) -> Void) {
            guard y < inner.maxY, width > 0 else { return }
            draw(&buffer, Rect(x: x, y: y, width: width, height: 1))
            y += 1
        }
        line { buffer, row in
            pairs(
                [
                    ("errors", Format.count(m.totalErrors)), ("dropped", Format.count(m.droppedEvents)),
                    ("listeners", "\(m.listenerCount)"),
                ], in: row, into: &buffer, palette: palette,
                valueStyle: m.droppedEvents > 0 ? palette[.alert] : palette[.text])
        }
        line { buffer, row in
            let rate = m.errorRatePerSecond.last ?? 0
            let suffix = " \(Format.count(rate))/s"
            var column = buffer.write("rate ", x: row.x, y: row.y, style: palette[.muted], clip: row)
            let sparkWidth = max(0, min(screen.unicode ? 30 : 60, row.maxX - column - DisplayWidth.of(suffix)))
            column = Sparkline.draw(
                m.errorRatePerSecond, width: sparkWidth, unicode: screen.unicode, x: column, y: row.y,
                style: palette[.sparkline], padding: false, into: &buffer)
            buffer.write(suffix, x: column, y: row.y, style: palette[.text], clip: row)
        }
        let typeRows = min(9, m.errorsByType.count) + 1 + (m.errorsByType.count > 9 || m.otherTypeErrors > 0 ? 1 : 0)
        let side = width >= 56
        if inner.maxY - y < typeRows + 2 {
            // Short pane: the numbered types matter most (keys 1…9 toggle them), so pack them first, leaving half
            // the rows to the producers' own metrics when there are any.
            let rows = inner.maxY - y
            let typeBottom = m.series.isEmpty ? inner.maxY : y + max(1, (rows + 1) / 2)
            y = drawCompactTypes(
                metrics, filter: filter, screen: screen, x: x, y: y, width: width, bottom: typeBottom, into: &buffer,
                palette: palette)
            drawSeries(
                m.series, x: x, y: y, width: width, bottom: inner.maxY, heading: false, selected: selected,
                into: &buffer, palette: palette)
            return
        }
        // The producers' metrics come next, leaving room for the type and category tables below them.
        let typeBlock = side ? max(typeRows, ErrorCategory.allCases.count + 1) : typeRows + 1 + 7
        let seriesBudget = inner.maxY - y - 1 - typeBlock
        if !m.series.isEmpty, seriesBudget >= 2 {
            y += 1
            y = drawSeries(
                m.series, x: x, y: y, width: width, bottom: y + seriesBudget, selected: selected, into: &buffer,
                palette: palette)
        }
        guard y < inner.maxY else { return }
        if inner.maxY - y > typeRows { y += 1 }
        let typeWidth = side ? width * 55 / 100 : width
        let top = y
        y = drawTypes(
            metrics, filter: filter, screen: screen, x: x, y: y, width: typeWidth, bottom: inner.maxY, into: &buffer,
            palette: palette)
        if side {
            drawCategories(
                m, x: x + typeWidth + 2, y: top, width: width - typeWidth - 2, bottom: inner.maxY,
                into: &buffer, palette: palette)
        } else if y + 1 < inner.maxY {
            drawCategories(m, x: x, y: y + 1, width: width, bottom: inner.maxY, into: &buffer, palette: palette)
        }
    }

    /// Draws a `metrics` heading (unless `heading` is false) and one line per series until `bottom`, the last line
    /// saying `+N more` when they do not all fit; the `selected` series is highlighted and the list starts late enough
    /// to show it. Returns the row after the last one drawn.
    @discardableResult
    static func drawSeries(
        _ series: [MetricSeries], x: Int, y start: Int, width: Int, bottom: Int, heading: Bool = true,
        selected: Int? = nil, into buffer: inout ScreenBuffer, palette: Palette
    ) -> Int {
        guard !series.isEmpty, bottom - start >= (heading ? 2 : 1), width > 8 else { return start }
        var y = start
        if heading {
            buffer.write(
                "metrics", x: x, y: y, width: width, style: palette[.muted].adding(.underline), padding: false)
            y += 1
        }
        let rows = bottom - y
        let fits = series.count <= rows
        // With a single row, a series is worth more than a bare `+N more`.
        let room = fits ? rows : max(1, rows - 1)
        let first = selected.map { min(max(0, $0 - room + 1), max(0, series.count - room)) } ?? 0
        let shown = series[first...].prefix(room)
        // Each name's width measured once, alone and with its service (`name · service`, not joined to be measured).
        let nameWidths = shown.map { DisplayWidth.of($0.name) }
        let fullWidths = zip(shown, nameWidths).map { line, width in
            line.service.map { width + 3 + DisplayWidth.of($0) } ?? width
        }
        // A name takes the room its values leave: the name itself (with every label: `{http.route=…,status=500}`)
        // before a value past the second, and its service (`· shop`) after the first two values.
        // Each series' values are formatted once, for the widths and for drawing, into one list for all the rows
        // (`spans` says which are whose), with each value's width (`p99 12ms`: its label, a blank and the value),
        // for the name's room and for dropping values on a narrow pane.
        var values: [(label: String, text: String, width: Int)] = []
        values.reserveCapacity(shown.count * 5)
        var spans: [Range<Int>] = []
        spans.reserveCapacity(shown.count)
        for line in shown {
            let from = values.count
            forEachValue(of: line) { label, text in
                values.append((label, text, (label.isEmpty ? 0 : DisplayWidth.of(label) + 1) + DisplayWidth.of(text)))
            }
            spans.append(from..<values.count)
        }
        func valuesWidth(_ span: Range<Int>, _ count: Int) -> Int {
            values[span.prefix(count)].reduce(-1) { $0 + 1 + $1.width }
        }
        let oneValue = spans.map { valuesWidth($0, 1) }.max() ?? 0
        let twoValues = spans.map { valuesWidth($0, 2) }.max() ?? 0
        let longestName = nameWidths.max() ?? 8
        let longestFull = fullWidths.max() ?? 8
        let nameWidth = max(
            8, min(longestFull, max(min(longestName, width - oneValue - 1), width - twoValues - 1)))
        for (index, line) in zip(shown.indices, shown) {
            let ownWidth = nameWidths[index - first]
            let span = spans[index - first]
            let isSelected = index == selected
            if isSelected { buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: palette[.selection]) }
            func style(_ role: ThemeRole) -> CellStyle {
                isSelected ? palette[role].on(palette[.selection]).adding(.bold) : palette[role]
            }
            if ownWidth > nameWidth {
                let name = fitted(line.name, to: nameWidth)
                buffer.write(name, x: x, y: y, width: min(nameWidth, DisplayWidth.of(name)), style: style(.text))
            } else {
                buffer.write(line.name, x: x, y: y, width: ownWidth, style: style(.text))
            }
            if let service = line.service, ownWidth + 3 < nameWidth {
                var run = TextRun(x: x + ownWidth, y: y, width: nameWidth - ownWidth, style: style(.muted))
                run.append(" · ", into: &buffer)
                run.append(service, into: &buffer)
                run.finish(into: &buffer)
            }
            // Values are right-aligned; on a narrow pane the last ones (count, p99) give way first.
            var kept = span.count
            var keptWidth = valuesWidth(span, kept)
            while kept > 1, keptWidth > width - nameWidth - 1 {
                kept -= 1
                keptWidth -= values[span.lowerBound + kept].width + 1
            }
            var column = max(x + nameWidth + 1, x + width - keptWidth)
            let row = Rect(x: x, y: y, width: width, height: 1)
            for at in span.prefix(kept) {
                let (label, value) = (values[at].label, values[at].text)
                if at > span.lowerBound { column = buffer.write(" ", x: column, y: y, style: style(.muted), clip: row) }
                if !label.isEmpty {
                    column = buffer.write(label, x: column, y: y, style: style(.muted), clip: row)
                    column = buffer.write(" ", x: column, y: y, style: style(.muted), clip: row)
                }
                column = buffer.write(value, x: column, y: y, style: style(.title), clip: row)
            }
            y += 1
        }
        if !fits, y < bottom {
            buffer.write("+\(series.count - shown.count) more", x: x, y: y, width: width, style: palette[.muted])
            y += 1
        }
        return y
    }

    /// A series' name cut to `width` columns keeping its last label whole (`requests{http.route=/che…status=500}`),
    /// so that series that differ only in it stay apart; a name without labels, or too narrow a room, is cut at
    /// its end.
    static func fitted(_ name: String, to width: Int) -> String {
        guard DisplayWidth.of(name) > width, name.hasSuffix("}"),
            let open = name.firstIndex(of: "{")
        else { return name }
        let labels = name[name.index(after: open)...]
        let lastStart = labels.lastIndex(of: ",").map { labels.index(after: $0) } ?? labels.startIndex
        let tail = name[lastStart...]
        let room = width - DisplayWidth.of(tail)
        // The head keeps at least the metric's name and the brace, and a character before the `…`.
        guard lastStart > name.index(after: open), room >= DisplayWidth.of(name[...open]) + 2 else { return name }
        return DisplayWidth.truncate(name[..<lastStart], to: room) + tail
    }

    /// The labelled values of a series: percentiles and count for a histogram, the reading for a gauge, the total
    /// and rate for a counter.
    static func values(of series: MetricSeries) -> [(String, String)] {
        var values: [(String, String)] = []
        forEachValue(of: series) { values.append(($0, $1)) }
        return values
    }

    /// Hands `body` each labelled value of ``values(of:)`` in turn, without a list for them (each row of the pane
    /// formats its series' values each frame).
    static func forEachValue(of series: MetricSeries, _ body: (String, String) -> Void) {
        func percentile(_ value: Double?) -> String { value.map { Format.measurement($0, unit: series.unit) } ?? "–" }
        switch series.kind {
        case .requests:
            body("", Format.number(series.ratePerSecond ?? 0) + "/s")
            body("err", Format.fixed((series.errorRatio ?? 0) * 100, 1) + "%")
            body("p50", percentile(series.p50))
            body("p95", percentile(series.p95))
            body("p99", percentile(series.p99))
        case .histogram:
            body("p50", percentile(series.p50))
            body("p95", percentile(series.p95))
            body("p99", percentile(series.p99))
            body("n", Format.count(series.count))
        case .gauge:
            body("", Format.measurement(series.value, unit: series.unit))
        case .counter:
            body("", Format.measurement(series.value, unit: series.unit))
            body("", series.ratePerSecond.map { Format.number($0) + "/s" } ?? "–")
        }
    }

    /// Draws `label value` pairs separated by two spaces.
    static func pairs(
        _ items: [(String, String)], in row: Rect, into buffer: inout ScreenBuffer, palette: Palette,
        valueStyle: CellStyle
    ) {
        var column = row.x
        for (index, (label, value)) in items.enumerated() {
            column = buffer.write(
                (index == 0 ? "" : "  ") + label + " ", x: column, y: row.y, style: palette[.muted],
                clip: row)
            column = buffer.write(
                value, x: column, y: row.y, style: index == 0 ? palette[.title] : valueStyle,
                clip: row)
        }
    }

    static func drawTypes(
        _ metrics: MetricsSnapshot, filter: FilterState, screen: ScreenState, x: Int, y start: Int, width: Int,
        bottom: Int, into buffer: inout ScreenBuffer,
        palette: Palette
    ) -> Int {
        var y = start
        buffer.write("by type", x: x, y: y, width: width, style: palette[.muted].adding(.underline), padding: false)
        y += 1
        let types = metrics.errorsByType
        if types.isEmpty, y < bottom {
            buffer.write("no errors yet", x: x, y: y, width: width, style: palette[.muted])
            return y + 1
        }
        for (index, type) in types.prefix(9).enumerated() where y < bottom {
            let active = filter.types.contains(type.name)
            let mark = active ? (screen.unicode ? "▸" : ">") : " "
            let count = Format.count(type.count)
            let nameWidth = max(1, width - 3 - count.count - 1)
            let style = active ? palette[.filter] : palette[.text]
            buffer.write(
                "\(mark)\(index + 1) ", x: x, y: y, width: 3, style: active ? palette[.filter] : palette[.muted])
            buffer.write(type.name, x: x + 3, y: y, width: nameWidth, style: style)
            buffer.write(" " + count, x: x + 3 + nameWidth, y: y, width: count.count + 1, style: style)
            y += 1
        }
        // The rest in one row with its exact count: types past the ninth, and those past the table's thousand.
        let other = metrics.otherTypeErrors
        let hidden = types.dropFirst(9).reduce(0) { $0 + $1.count } + other
        if hidden > 0, y < bottom {
            let label =
                types.count > 9 ? "+\(types.count - 9) more" + (other > 0 ? " & other types" : "") : "other types"
            let count = Format.count(hidden)
            let nameWidth = max(1, width - 3 - count.count - 1)
            buffer.write(label, x: x + 3, y: y, width: nameWidth, style: palette[.muted])
            buffer.write(" " + count, x: x + 3 + nameWidth, y: y, width: count.count + 1, style: palette[.muted])
            y += 1
        }
        return y
    }

    static func drawCompactTypes(
        _ metrics: MetricsSnapshot, filter: FilterState, screen: ScreenState, x: Int, y start: Int, width: Int,
        bottom: Int, into buffer: inout ScreenBuffer,
        palette: Palette
    ) -> Int {
        guard start < bottom else { return start }
        var y = start
        var column = buffer.write(
            "types", x: x, y: y, style: palette[.muted], clip: Rect(x: x, y: y, width: width, height: 1))
        for (index, type) in metrics.errorsByType.prefix(9).enumerated() {
            let active = filter.types.contains(type.name)
            let item = "  \(index + 1) \(type.name) \(Format.count(type.count))"
            let itemWidth = DisplayWidth.of(item)
            if column + itemWidth > x + width {
                y += 1
                column = x + 3
                guard y < bottom else { return y }
            }
            let row = Rect(x: x, y: y, width: width, height: 1)
            column = buffer.write(
                "  \(index + 1) ", x: column, y: y, style: active ? palette[.filter] : palette[.muted],
                clip: row)
            column = buffer.write(
                "\(type.name) \(Format.count(type.count))", x: column, y: y,
                style: active ? palette[.filter] : palette[.text], clip: row)
        }
        return y + 1
    }

    static func drawCategories(
        _ metrics: MetricsSnapshot, x: Int, y start: Int, width: Int, bottom: Int, into buffer: inout ScreenBuffer,
        palette: Palette
    ) {
        guard width > 4 else { return }
        var y = start
        buffer.write("by category", x: x, y: y, width: width, style: palette[.muted].adding(.underline), padding: false)
        y += 1
        for category in ErrorCategory.allCases where y < bottom {
            let count = Format.count(metrics.errorsByCategory[category] ?? 0)
            let nameWidth = max(1, width - count.count - 1)
            buffer.write(category.label, x: x, y: y, width: nameWidth, style: palette.style(for: category))
            buffer.write(" " + count, x: x + nameWidth, y: y, width: count.count + 1, style: palette[.text])
            y += 1
        }
        if metrics.unclassifiedErrors > 0, y < bottom {
            let count = Format.count(metrics.unclassifiedErrors)
            let nameWidth = max(1, width - count.count - 1)
            buffer.write("— unclassified", x: x, y: y, width: nameWidth, style: palette[.muted])
            buffer.write(" " + count, x: x + nameWidth, y: y, width: count.count + 1, style: palette[.text])
        }
    }
}
