import Foundation

/// The chart of one series, opened with `Enter` from the Metrics pane: its full name with every label, its kind and
/// the window shown, then each panel of ``MetricChart`` with a value axis in the series' unit, its lines (braille in
/// a UTF-8 terminal, ASCII marks otherwise) and their latest values, and a time axis under them. `w` cycles the
/// window through the last 1, 5, 15 and 60 minutes.
enum MetricChartView {
    /// Draws the chart of the series `id` into `area` (inside the detail view's border).
    static func draw(
        _ id: String, state: DashboardState, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) {
        guard area.width >= 10, area.height >= 1 else { return }
        let x = area.x + 1
        let width = area.width - 2
        var y = area.y
        let window = state.detail.chartWindow
        let listed = state.feeds.metrics.series.first { $0.id == id }
        guard let chart = state.feeds.metrics.chart, chart.id == id, let plot = chart.plots[window] else {
            let message =
                listed == nil
                ? "This series is no longer listed: the Metrics pane lists the 200 most recently updated."
                : "Waiting for the next sample (every 0.5 s)…"
            for line in DetailView.wrap(message, width: width).prefix(area.height) {
                buffer.write(line, x: x, y: y, style: palette[.muted], clip: area)
                y += 1
            }
            return
        }
        // The name whole with every label, wrapped (leaving each panel three rows), then its service.
        let panelCount = max(1, plot.panels.count)
        for line in DetailView.wrap(chart.name, width: width).prefix(max(1, area.height - 4 - 3 * panelCount))
        where y < area.maxY {
            buffer.write(line, x: x, y: y, style: palette[.title], clip: area)
            y += 1
        }
        guard y < area.maxY else { return }
        let row = Rect(x: x, y: y, width: width, height: 1)
        var column = x
        if let service = chart.service {
            column = buffer.write(service + " · ", x: column, y: y, style: palette[.text], clip: row)
        }
        column = buffer.write(description(of: chart.kind), x: column, y: y, style: palette[.text], clip: row)
        column = buffer.write(
            " · last \(window.label), \(MetricChart.buckets) buckets of \(window.step) s", x: column, y: y,
            style: palette[.muted], clip: row)
        let hint = "w: 1/5/15/60 min"
        if row.maxX - column >= DisplayWidth.of(hint) + 3 {
            buffer.write(hint, x: row.maxX - DisplayWidth.of(hint), y: y, style: palette[.muted], clip: row)
        }
        y += 2
        // The panels share what is left, each a heading and its plot, above one time axis.
        let panels = plot.panels.filter { !$0.lines.isEmpty }
        let rows = area.maxY - y - 1
        guard !panels.isEmpty, rows >= panels.count * 3 else {
            if y < area.maxY {
                buffer.write(
                    "enlarge the terminal to see the chart", x: x, y: min(y, area.maxY - 1), style: palette[.muted],
                    clip: area)
            }
            return
        }
        var axisLabels: [(String, String, String)] = []
        var ranges: [ClosedRange<Double>] = []
        for panel in panels {
            let range = valueRange(panel, kind: chart.kind)
            ranges.append(range)
            let middle = (range.lowerBound + range.upperBound) / 2
            axisLabels.append(
                (
                    value(range.upperBound, unit: panel.unit), value(middle, unit: panel.unit),
                    value(range.lowerBound, unit: panel.unit)
                ))
        }
        let labelWidth = axisLabels.flatMap { [$0.0, $0.1, $0.2] }.map(DisplayWidth.of).max() ?? 1
        let plotX = x + labelWidth + 2
        let plotWidth = max(1, width - labelWidth - 2)
        let unicode = state.screen.unicode
        for (index, panel) in panels.enumerated() {
            let share = rows / panels.count + (index < rows % panels.count ? 1 : 0)
            let plotRows = share - 1
            drawHeading(panel, at: y, x: x, width: width, into: &buffer, palette: palette, unicode: unicode)
            y += 1
            var canvas = ChartCanvas(width: plotWidth, height: plotRows, unicode: unicode)
            for (number, line) in panel.lines.enumerated() {
                canvas.plot(line.values, range: ranges[index], line: number)
            }
            let (top, middle, bottom) = axisLabels[index]
            for plotRow in 0..<plotRows {
                let label =
                    plotRow == 0 ? top : plotRow == plotRows - 1 ? bottom : plotRow == plotRows / 2 ? middle : ""
                buffer.write(
                    String(repeating: " ", count: labelWidth - DisplayWidth.of(label)) + label, x: x, y: y,
                    style: palette[.muted], clip: area)
                buffer.write(unicode ? "┤" : "|", x: x + labelWidth + 1, y: y, style: palette[.border], clip: area)
                for cell in 0..<plotWidth {
                    guard let glyph = canvas.glyph(x: cell, y: plotRow) else { continue }
                    let role = self.role(of: panel.lines[glyph.line].label)
                    buffer.write(glyph.text, x: plotX + cell, y: y, style: palette[role], clip: area)
                }
                y += 1
            }
            if panel.lines.allSatisfy({ $0.values.allSatisfy { $0 == nil } }) {
                let note = "nothing recorded in the last \(window.label)"
                let noteY = y - (plotRows + 1) / 2
                buffer.write(
                    note, x: plotX + max(0, (plotWidth - DisplayWidth.of(note)) / 2), y: noteY,
                    style: palette[.muted], clip: area)
            }
        }
        drawTimeAxis(window, at: y, x: plotX, width: plotWidth, into: &buffer, palette: palette, clip: area)
    }

    /// A panel's heading: its title and unit, then each line's mark, label and latest value.
    private static func drawHeading(
        _ panel: MetricChart.Panel, at y: Int, x: Int, width: Int, into buffer: inout ScreenBuffer, palette: Palette,
        unicode: Bool
    ) {
        let row = Rect(x: x, y: y, width: width, height: 1)
        // A duration's axis labels carry their unit (`250ms`); any other unit is said once, here.
        let unit = panel.unit.flatMap { ["ns", "us", "µs", "ms", "s"].contains($0) ? nil : " (\($0))" }
        var column = buffer.write(
            panel.title + (unit ?? ""), x: x, y: y,
            style: palette[.muted].adding(.underline), clip: row)
        for (number, line) in panel.lines.enumerated() {
            let mark =
                unicode ? "━" : String(Unicode.Scalar(ChartCanvas.marks[number % ChartCanvas.marks.count]))
            let latest = line.values.last { $0 != nil }.flatMap { $0 }
            column = buffer.write("   " + mark + " ", x: column, y: y, style: palette[role(of: line.label)], clip: row)
            column = buffer.write(line.label + " ", x: column, y: y, style: palette[.muted], clip: row)
            column = buffer.write(
                latest.map { value($0, unit: panel.unit) } ?? "–", x: column, y: y, style: palette[.title], clip: row)
        }
    }

    /// `-5m` at the left, the middle's time, `now` at the right.
    private static func drawTimeAxis(
        _ window: MetricChart.Window, at y: Int, x: Int, width: Int, into buffer: inout ScreenBuffer,
        palette: Palette, clip: Rect
    ) {
        guard y < clip.maxY else { return }
        let left = "-" + span(window.seconds)
        let middle = "-" + span(window.seconds / 2)
        buffer.write(left, x: x, y: y, style: palette[.muted], clip: clip)
        let middleX = x + (width - DisplayWidth.of(middle)) / 2
        if middleX > x + DisplayWidth.of(left) + 1 {
            buffer.write(middle, x: middleX, y: y, style: palette[.muted], clip: clip)
        }
        buffer.write("now", x: x + width - 3, y: y, style: palette[.muted], clip: clip)
    }

    /// `45s`, `2m30s`, `5m`.
    static func span(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds)s" }
        return "\(seconds / 60)m" + (seconds % 60 == 0 ? "" : "\(seconds % 60)s")
    }

    /// What a kind of series is drawn as.
    private static func description(of kind: MetricSeries.Kind) -> String {
        switch kind {
        case .counter: "counter, as its rate"
        case .gauge: "gauge"
        case .histogram: "histogram, percentiles per bucket"
        case .requests: "requests from spans"
        }
    }

    /// The colour of a line: errors and p99 as errors, p95 as warnings, the rest as the sparkline.
    private static func role(of label: String) -> ThemeRole {
        switch label {
        case "errors", "p99": .severityError
        case "p95": .severityWarning
        default: .sparkline
        }
    }

    /// A value in a panel's unit; a rate's unit (`…/s`) is written after the value in its base unit.
    static func value(_ value: Double, unit: String?) -> String {
        if value == 0 { return "0" }
        if let unit, unit.hasSuffix("/s") {
            let base = String(unit.dropLast(2))
            return Format.measurement(value, unit: base == "1" ? nil : base) + "/s"
        }
        return Format.measurement(value, unit: unit)
    }

    /// The value axis of a panel: from 0 (or a round value below the lowest, when it is negative) to a round value
    /// at or above the highest; a gauge's axis spans its values, with a margin.
    static func valueRange(_ panel: MetricChart.Panel, kind: MetricSeries.Kind) -> ClosedRange<Double> {
        let values = panel.lines.flatMap { $0.values.compactMap { $0 } }.filter(\.isFinite)
        guard let low = values.min(), let high = values.max() else { return 0...1 }
        if kind == .gauge {
            let margin = high > low ? (high - low) * 0.1 : max(1, abs(high) * 0.1)
            return (low - margin)...(high + margin)
        }
        let lower = low >= 0 ? 0 : -roundedUp(-low)
        let upper = high > 0 ? roundedUp(high) : (lower < 0 ? 0 : 1)
        return lower...max(upper, lower + 1e-9)
    }

    /// The least of 1, 2, 2.5 and 5 times a power of ten at or above `value`.
    static func roundedUp(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in [1, 2, 2.5, 5, 10] where value <= factor * power * (1 + 1e-12) { return factor * power }
        return 10 * power
    }
}
