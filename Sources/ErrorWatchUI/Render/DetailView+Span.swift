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
        lines += spanAttributeLines("Attributes", span.attributes, width: width)
        lines += spanEventLines(span, width: width)
        if !span.links.isEmpty {
            lines += [Line([]), Line([("Links", .title)])]
            for link in span.links {
                lines.append(Line([("trace \(link.traceID) span \(TraceSpan.hex(link.spanID))", .text)]))
                lines += attributeRows(link.attributes, indent: 2, width: width)
            }
        }
        lines += occurrenceLines(
            .span(traceID: traceID, spanID: spanID), state: state, width: width,
            title: "Log lines and errors of this span, newest first")
        return lines
    }

    /// A titled section of `attributes`, sorted by key; nothing when there are none.
    static func spanAttributeLines(_ title: String, _ attributes: [String: String], width: Int) -> [Line] {
        guard !attributes.isEmpty else { return [] }
        return [Line([]), Line([(title, .title)])] + attributeRows(attributes, indent: 0, width: width)
    }

    /// `key  value` rows, sorted by key, values wrapped under themselves.
    static func attributeRows(_ attributes: [String: String], indent: Int, width: Int) -> [Line] {
        let keyWidth = keyWidth(attributes.keys, width: width - indent)
        var lines: [Line] = []
        for key in attributes.keys.sorted() {
            for line in labelled(key, attributes[key] ?? "", role: .text, width: width - indent, labelWidth: keyWidth) {
                let segments = line.segments.map { ($0.text, $0.role) }
                lines.append(Line([(String(repeating: " ", count: indent), .muted)] + segments))
            }
        }
        return lines
    }

    /// The span's events, each with its time from the span's start and its attributes; an exception's stack trace
    /// as lines (at most ``stackTraceLineLimit``).
    static func spanEventLines(_ span: TraceSpan, width: Int) -> [Line] {
        guard !span.events.isEmpty else { return [] }
        var lines = [Line([]), Line([("Events", .title)])]
        for event in span.events {
            var when = "?"
            if event.timeUnixNano != 0, span.startUnixNano != 0 {
                let offset = (Double(event.timeUnixNano) - Double(span.startUnixNano)) / 1e9
                when = Format.offset(offset)
            }
            let isException = event.name == "exception"
            let name = Sanitizer.sanitize(event.name, limit: 200)
            lines.append(Line([(when + " ", .muted), (name, isException ? .alert : .text)]))
            var attributes = event.attributes
            let stacktrace = attributes.removeValue(forKey: "exception.stacktrace")
            lines += attributeRows(attributes, indent: 2, width: width)
            if let stacktrace {
                let traceLines = stacktrace.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                for line in traceLines.prefix(stackTraceLineLimit) {
                    for part in wrap(Sanitizer.sanitize(String(line), limit: 1_000), width: max(8, width - 4)) {
                        lines.append(Line([("    ", .muted), (part, .muted)]))
                    }
                }
                if traceLines.count > stackTraceLineLimit {
                    lines.append(Line([("    … \(traceLines.count - stackTraceLineLimit) more lines", .muted)]))
                }
            }
        }
        return lines
    }
}
