import Foundation

/// The Traces view of the top-left pane (`v` after Patterns): every trace the trace store holds, failing or not,
/// newest first (`O`: slowest first, most errors first). Each row: duration and a bar of it relative to the slowest
/// trace shown, span count, failing spans, the root span's name (`(no root)` when the span without a parent was not
/// received, and the first span's name is shown), its services, and its age (since its latest end). `Enter` opens
/// the trace's waterfall.
public enum TracesPane: Widget {
    public static func part(of state: DashboardState) -> TracesState { state.traces }

    /// The type filter does not apply: spans have no error type.
    public static func render(_ input: WidgetInput<TracesPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (traces, screen, palette) = (input.part, input.screen, input.palette)
        // Only the rows up to the last one shown are put in order: a frame with 50,000 traces held sorts none.
        let (count, place) = traces.count(input.filter)
        let selected = screen.focus == .errors && count > 0 ? place ?? 0 : nil
        let first = ErrorsPane.firstRow(
            scroll: traces.scroll, count: count, rows: max(0, area.height - 2), selected: selected)
        let rows = traces.leading(first + max(0, area.height - 2), input.filter)
        let (inner, start) = ErrorsPane.frameList(
            "Traces", count: count, total: traces.rows.count, noun: ("trace", "traces"), scroll: traces.scroll,
            selected: selected, note: { $0.isEmpty ? $0 : $0 + " · by \(traces.sortOrder.rawValue)" }, screen: screen,
            in: area, into: &buffer, palette: palette)
        guard !inner.isEmpty else { return }
        if count == 0 {
            let text =
                traces.rows.isEmpty
                ? "No traces yet: spans sent over OTLP appear here." : "No traces match the filters."
            buffer.write(text, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: palette[.muted])
            return
        }
        let shown = start..<min(rows.count, start + inner.height)
        assert(start == first, "the frame's first row is the one the rows were found up to")
        // The bar's scale: the slowest trace on screen.
        let slowest = rows[shown].compactMap(\.durationNanos).max() ?? 0
        ErrorsPane.drawRows(shown, selected: selected, in: inner, into: &buffer, palette: palette) { index, y, buffer in
            drawRow(
                rows[index], slowest: slowest, screen: screen, x: inner.x, y: y, width: inner.width, into: &buffer,
                palette: palette)
        }
    }

    /// The bar's width for a row `width` columns wide (none when narrow).
    static func barWidth(_ width: Int) -> Int { width >= 120 ? 20 : width >= 70 ? 10 : 0 }

    /// One trace: duration, bar, spans, errors, root name and services, then its age on the right.
    static func drawRow(
        _ trace: TraceSummary, slowest: UInt64, screen: ScreenState, x: Int, y: Int, width: Int,
        into buffer: inout ScreenBuffer, palette: Palette
    ) {
        let row = Rect(x: x, y: y, width: width, height: 1)
        let duration = trace.durationNanos.map(DetailView.durationText) ?? "?"
        var column = buffer.write(
            DetailView.cell(duration, 8, right: true) + " ", x: x, y: y,
            style: trace.failed ? palette[.alert] : palette[.text], clip: row)
        let barWidth = barWidth(width)
        if barWidth > 0 {
            column = buffer.write(
                bar(trace.durationNanos, slowest: slowest, width: barWidth, unicode: screen.unicode) + " ", x: column,
                y: y, style: trace.failed ? palette[.alert] : palette[.sparkline], clip: row)
        }
        // `+`: spans over the store's limit per trace were received and not kept.
        let spans = Format.count(trace.spanCount) + (trace.droppedSpans > 0 ? "+" : "")
        let noun = trace.spanCount == 1 && trace.droppedSpans == 0 ? " span  " : " spans "
        column = buffer.write(
            DetailView.cell(spans, 6, right: true) + noun, x: column, y: y, style: palette[.muted], clip: row)
        let errors = trace.failed ? "\(Format.count(trace.failedSpans)) err" : "–"
        column = buffer.write(
            DetailView.cell(errors, 7, right: true) + "  ", x: column, y: y,
            style: trace.failed ? palette[.alert].adding(.bold) : palette[.muted], clip: row)
        let ageText = trace.endUnixNano == 0 ? "?" : Format.age(screen.now.timeIntervalSince(date(trace.endUnixNano)))
        let right = width >= 50 ? 6 : 0
        let nameWidth = max(0, x + width - right - column)
        let name = Sanitizer.sanitize(trace.rootName.map { $0.isEmpty ? "(unnamed)" : $0 } ?? "?", limit: 200)
        let mark = trace.rootIsOrphan ? " (no root)" : ""
        let services =
            trace.services.isEmpty
            ? "" : "  " + trace.services.map { Sanitizer.sanitize($0, limit: 60) }.joined(separator: ", ")
        let nameShown = DisplayWidth.truncate(name, to: max(0, nameWidth - DisplayWidth.of(mark)))
        var end = buffer.write(nameShown, x: column, y: y, style: palette[.text], clip: row)
        if !mark.isEmpty, nameWidth > DisplayWidth.of(mark) {
            end = buffer.write(mark, x: end, y: y, style: palette[.muted], clip: row)
        }
        let servicesWidth = x + width - right - end
        if servicesWidth > 3, !services.isEmpty {
            buffer.write(
                DisplayWidth.truncate(services, to: servicesWidth), x: end, y: y, style: palette[.muted], clip: row)
        }
        if right > 0 {
            buffer.write(
                DetailView.cell(ageText, right - 1, right: true) + " ", x: x + width - right, y: y,
                style: palette[.text], clip: row)
        }
    }

    /// A bar of `nanos` against `slowest`, `width` cells: full blocks, then a partial one in UTF-8 (`#` in ASCII);
    /// `?` when the duration is unknown.
    static func bar(_ nanos: UInt64?, slowest: UInt64, width: Int, unicode: Bool) -> String {
        guard let nanos else { return DetailView.cell("?", width) }
        let eighths = slowest == 0 ? 0 : Int((Double(nanos) / Double(slowest) * Double(width * 8)).rounded())
        let full = min(width, eighths / 8)
        var text = String(repeating: unicode ? "█" : "#", count: full)
        if unicode, full < width, eighths % 8 > 0 {
            text.append(["▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8 - 1])
        }
        if text.isEmpty { text = unicode ? "▏" : "#" }
        return text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// A producer's nanoseconds since 1970 as a date, in the middle of its microsecond: a `Double` of seconds
    /// cannot hold every nanosecond, and a time shown cut to the millisecond must not fall into the one before.
    static func date(_ nanos: UInt64) -> Date { Date(timeIntervalSince1970: (Double(nanos / 1_000) + 0.5) / 1e6) }
}
