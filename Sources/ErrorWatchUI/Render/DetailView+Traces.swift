import ErrorStreaming
import Foundation

/// The detail view of a trace opened from the Traces view: its id, root span, services, duration, spans and failing
/// spans, then its waterfall (the same table as an error's **Trace** section) as the trace store sends it.
extension DetailView {
    static func traceDetailLines(_ traceID: String, state: DashboardState, width: Int) -> [Line] {
        var lines = labelled("Trace", traceID, role: .title, width: width)
        if let row = state.traces.rows[traceID] {
            var root = row.rootName.map { $0.isEmpty ? "(unnamed)" : $0 } ?? "?"
            if row.rootIsOrphan { root += " (no root: the span without a parent was not received)" }
            lines += labelled("Root span", root, role: .text, width: width)
            lines += labelled(
                "Services", row.services.isEmpty ? "(none named)" : row.services.joined(separator: ", "), role: .text,
                width: width)
            lines += labelled("Duration", row.durationNanos.map(durationText) ?? "unknown", role: .text, width: width)
            if row.startUnixNano != 0 {
                lines += labelled(
                    "Started", Format.timestamp(TracesPane.date(row.startUnixNano)), role: .text, width: width)
            }
            var spans = Format.count(row.spanCount)
            if row.droppedSpans > 0 { spans += " (\(Format.count(row.droppedSpans)) more over the per-trace limit)" }
            lines += labelled("Spans", spans, role: .text, width: width)
            lines += labelled(
                "Failing spans", Format.count(row.failedSpans), role: row.failed ? .alert : .text, width: width)
        }
        lines.append(Line([]))
        guard let snapshot = state.traces.snapshot(of: traceID) else {
            lines.append(Line([("Asked the trace store for its spans…", .muted)]))
            return lines
        }
        guard !snapshot.spans.isEmpty else {
            let text =
                snapshot.evicted
                ? "The trace store no longer holds this trace (evicted to stay within its budget)."
                : "No span of this trace received yet."
            lines.append(Line([(text, .muted)]))
            return lines
        }
        if snapshot.spans.count < snapshot.storedSpans {
            let shown = "\(Format.count(snapshot.spans.count)) of \(Format.count(snapshot.storedSpans)) spans shown"
            lines.append(Line([(shown, .muted)]))
        }
        if snapshot.evicted {
            lines.append(Line([("Evicted from the trace store since: these are the last spans seen.", .muted)]))
        }
        lines.append(Line([("j k select a span, Enter opens it", .muted)]))
        let selected = min(state.detail.span, max(0, min(snapshot.spans.count, traceRowLimit) - 1))
        lines += traceTable(snapshot, marked: nil, selected: selected, unicode: state.screen.unicode, width: width)
        return lines
    }
}
