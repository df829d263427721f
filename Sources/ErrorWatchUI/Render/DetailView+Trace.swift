import ErrorStreaming
import Foundation

/// The detail view's **Trace** section: the spans of the event's trace received so far, as a tree with a
/// waterfall of their durations, the event's own span marked; and the trace's log lines as its breadcrumbs.
extension DetailView {
    /// Spans drawn at most in the section (the snapshot holds at most the store's limit).
    public static let traceRowLimit = TraceTree.shownLimit

    /// The section for `event`, when it names a trace; nothing otherwise.
    static func traceLines(_ event: DashboardEvent, state: DashboardState, width: Int) -> [Line] {
        guard let traceID = event.traceID else { return [] }
        var lines = [Line([]), Line([("Trace ", .title), (Sanitizer.sanitize(traceID, limit: 64), .text)])]
        guard let snapshot = state.traces.snapshot(of: traceID) else {
            // Nothing says spans will come: the producer's service sent none here.
            lines.append(Line([("Its spans are not sent to this dashboard.", .muted)]))
            return lines
        }
        guard !snapshot.spans.isEmpty else {
            lines.append(Line([("No span of this trace received yet: it fills in as spans arrive.", .muted)]))
            return lines
        }
        var summary = "\(Format.count(snapshot.storedSpans)) span\(snapshot.storedSpans == 1 ? "" : "s") received"
        if snapshot.spans.count < snapshot.storedSpans { summary += ", \(Format.count(snapshot.spans.count)) shown" }
        if snapshot.droppedSpans > 0 { summary += ", \(Format.count(snapshot.droppedSpans)) over the per-trace limit" }
        if let total = TraceTree.extent(of: snapshot.spans)?.nanos { summary += " · " + durationText(total) }
        if snapshot.evicted { summary += " · evicted from the trace store since (these are the last spans seen)" }
        lines.append(Line([(summary, .muted)]))
        lines += traceTable(snapshot, marked: event.spanID, unicode: state.screen.unicode, width: width)
        return lines
    }

    /// The tree as a table: name (indented), service, duration, status and, when there is room, the waterfall; row
    /// `selected` highlighted.
    static func traceTable(
        _ snapshot: TraceSnapshot, marked: String?, selected: Int? = nil, unicode: Bool, width: Int
    ) -> [Line] {
        let rows = TraceTree.rows(of: snapshot)
        let serviceWidth = 14
        let durationWidth = 9
        let statusWidth = 6
        let fixed = serviceWidth + durationWidth + statusWidth + 3
        let barWidth = width >= 70 ? max(10, (width - fixed) / 3) : 0
        let nameWidth = max(12, width - fixed - (barWidth > 0 ? barWidth + 1 : 0))
        let extent = TraceTree.extent(of: snapshot.spans)
        var lines = [
            Line([
                (cell("span", nameWidth) + " " + cell("service", serviceWidth) + " " + cell("duration", durationWidth)
                    + " " + cell("status", statusWidth) + (barWidth > 0 ? " " + cell("waterfall", barWidth) : ""),
                    .muted)
            ])
        ]
        for (index, row) in rows.enumerated() {
            let span = row.span
            let isMarked = marked != nil && span.hexID == marked
            var name = row.guides.map { $0 ? (unicode ? "│ " : "| ") : "  " }.joined()
            if row.depth > 0 { name += row.last ? (unicode ? "└ " : "`-") : (unicode ? "├ " : "|-") }
            if row.depth > TraceTree.guideLimit + 1 { name += "[\(row.depth)] " }
            name += Sanitizer.sanitize(span.name.isEmpty ? "(unnamed)" : span.name, limit: 200)
            if let note = row.note { name += " (\(note))" }
            let mark = isMarked ? (unicode ? " ◀" : " <") : ""
            let nameText = DisplayWidth.truncate(name, to: nameWidth - DisplayWidth.of(mark)) + mark
            let status = span.failed ? "error" : span.status == .ok ? "ok" : "–"
            var segments: [(String, ThemeRole)] = [
                (cell(nameText, nameWidth), isMarked ? .alert : .text),
                (" " + cell(Sanitizer.sanitize(span.service ?? "?", limit: 60), serviceWidth), .muted),
                (" " + cell(span.durationNanos.map(durationText) ?? "?", durationWidth, right: true), .text),
                (" " + cell(status, statusWidth), span.failed ? .alert : .muted),
            ]
            if barWidth > 0 {
                segments.append((" " + bar(span, extent: extent, width: barWidth, unicode: unicode), span.failed ? .alert : .sparkline))
            }
            lines.append(Line(segments, selected: index == selected))
        }
        if snapshot.spans.count > traceRowLimit {
            lines.append(Line([("… \(Format.count(snapshot.spans.count - traceRowLimit)) more spans not drawn", .muted)]))
        }
        return lines
    }

    /// The span's place in the trace's time: spaces before its start, a bar for its duration; `?` when its times
    /// are unknown (0, or an end before the start).
    static func bar(_ span: TraceSpan, extent: TraceTree.Extent?, width: Int, unicode: Bool) -> String {
        guard let extent, let duration = span.durationNanos, span.startUnixNano >= extent.start else {
            return cell("?", width)
        }
        let scale = Double(width) / Double(max(1, extent.nanos))
        let offset = min(width - 1, Int(Double(span.startUnixNano - extent.start) * scale))
        let length = max(1, min(width - offset, Int((Double(duration) * scale).rounded())))
        return String(repeating: " ", count: offset) + String(repeating: unicode ? "█" : "#", count: length)
            + String(repeating: " ", count: width - offset - length)
    }

    /// A duration in nanoseconds, as the dashboard writes durations (`850µs`, `12ms`, `1.25s`).
    static func durationText(_ nanos: UInt64) -> String {
        Format.duration(.nanoseconds(Int64(clamping: nanos)))
    }

    /// `text` padded (or cut) to `width` columns.
    static func cell(_ text: String, _ width: Int, right: Bool = false) -> String {
        let cut = DisplayWidth.truncate(text, to: width)
        let pad = String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
        return right ? pad + cut : cut + pad
    }

    /// The lines of `event`'s trace in Logs that came before it (itself left out), the ``breadcrumbLimit`` most
    /// recent, oldest first; `nil` when the event names no trace.
    static func traceBreadcrumbs(of event: DashboardEvent, in state: DashboardState) -> [DashboardEvent]? {
        guard let traceID = event.traceID else { return nil }
        let lines = state.logs.lines
        guard let position = lines.lastIndex(where: { $0.sequence == event.sequence }) else { return [] }
        var found: [DashboardEvent] = []
        var index = position
        while index > lines.startIndex, found.count < breadcrumbLimit {
            index -= 1
            let candidate = lines[index]
            if candidate.traceID == traceID, candidate.timestamp <= event.timestamp { found.append(candidate) }
        }
        return found.reversed()
    }

    /// The breadcrumbs section's title: of the trace when the event names one, else of its service.
    static func breadcrumbTitle(_ event: DashboardEvent, count: Int) -> String {
        let amount = count == 0 ? "none" : "last \(count)"
        if let traceID = event.traceID { return "Breadcrumbs (\(amount) of trace \(traceID.prefix(8))…)" }
        return "Breadcrumbs (\(amount) of \(event.service ?? event.from ?? "this process") before it)"
    }
}
