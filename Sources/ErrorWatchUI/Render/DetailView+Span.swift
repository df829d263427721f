import ErrorStreaming
import Foundation

/// The detail view of one span, opened from a trace's waterfall (or from an error recorded on it): its name, kind,
/// service, status, start, duration and ids, then the log lines and errors of that span that Logs still keeps,
/// newest first (`[`/`]` select one, `Enter` opens it).
extension DetailView {
    static func spanLines(_ spanID: UInt64, of traceID: String, state: DashboardState, width: Int) -> [Line] {
        guard let span = state.span(spanID, of: traceID) else {
            return [Line([("This span is no longer kept (its trace left the trace store).", .muted)])]
        }
        var lines = labelled("Span", span.name.isEmpty ? "(unnamed)" : span.name, role: .title, width: width)
        lines += labelled("Kind", span.kind.rawValue, role: .text, width: width)
        lines += labelled("Service", span.service ?? "(not named)", role: .text, width: width)
        var status = span.status.rawValue
        if let message = span.statusMessage { status += ": " + message }
        lines += labelled("Status", status, role: span.status == .error ? .alert : .text, width: width)
        if span.errors > 0 {
            lines += labelled("Errors counted", Format.count(span.errors), role: .alert, width: width)
        }
        lines += labelled(
            "Start", span.startUnixNano == 0 ? "not sent" : Format.timestamp(TracesPane.date(span.startUnixNano)),
            role: .text, width: width)
        lines += labelled(
            "Duration", span.durationNanos.map(durationText) ?? "unknown (a time missing, or the end before the start)",
            role: .text, width: width)
        lines += labelled("Span id", span.hexID, role: .muted, width: width)
        let parent: String
        if let id = span.parentSpanID {
            // Held but left out of the snapshot (over its limit) is received, not "not received".
            let received =
                state.span(id, of: traceID) != nil
                || state.traces.snapshot(of: traceID)?.unshownParents.contains(id) == true
            parent = TraceSpan.hex(id) + (received ? "" : " (not received)")
        } else {
            parent = "none: a root"
        }
        lines += labelled("Parent", parent, role: .muted, width: width)
        lines += labelled("Trace", traceID, role: .muted, width: width)
        lines += occurrenceLines(
            .span(traceID: traceID, spanID: spanID), state: state, width: width,
            title: "Log lines and errors of this span, newest first")
        return lines
    }
}
