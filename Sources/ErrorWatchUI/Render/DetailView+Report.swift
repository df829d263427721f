import ErrorStreaming
import Foundation

/// An event's ``ExceptionReport`` in the detail view, as Sentry's issue page shows it, in a terminal: the exception
/// chain, the stack trace (the failing call first, the app's own frames shown and library frames folded, `f`
/// unfolds them), the selected frame's source lines with the failing line marked and its local variables (`,` and
/// `.` select a frame), then tags, contexts, user, request, the SDK's breadcrumbs, and what the receiver left out.
extension DetailView {
    /// `file:line:column in function`, with what is unknown left out (`?` when nothing is known).
    static func frameTitle(_ frame: ExceptionReport.Frame) -> String {
        var place = frame.file ?? frame.module ?? "?"
        if let line = frame.line { place += ":\(line)" }
        if let column = frame.column { place += ":\(column)" }
        if let function = frame.function { place += " in \(function)" }
        return place
    }

    static func reportLines(
        _ report: ExceptionReport, of event: DashboardEvent, state: DashboardState, width: Int
    ) -> [Line] {
        var lines: [Line] = []
        func section(_ title: String, _ hint: String = "") {
            lines.append(Line([]))
            lines.append(Line([(title, .title), (hint, .muted)]))
        }
        func fields(_ list: [ExceptionReport.Field]) {
            let keys = keyWidth(list.map(\.name), width: width)
            for field in list {
                lines += labelled(field.name, field.value, role: .text, width: width, labelWidth: keys)
            }
        }
        if !report.exceptions.isEmpty {
            section("Exception chain", report.exceptions.count > 1 ? "  (outermost first)" : "")
            for (index, exception) in report.exceptions.enumerated() {
                let name = exception.type ?? exception.module ?? "(no type sent)"
                var marks: [String] = []
                if exception.handled == false { marks.append("unhandled") }
                if exception.handled == true { marks.append("handled") }
                if let mechanism = exception.mechanism { marks.append(mechanism) }
                let prefix = index == 0 ? "" : "from "
                let text = Sanitizer.sanitize(prefix + name + (exception.value.map { ": " + $0 } ?? ""), limit: 2_000)
                let tail = marks.isEmpty ? "" : "  [" + marks.joined(separator: " · ") + "]"
                let role: ThemeRole = exception.handled == false ? .alert : .text
                for (row, part) in wrap(text, width: width).enumerated() {
                    lines.append(Line(row == 0 ? [(part, role)] : [(part, .text)]))
                }
                if !tail.isEmpty { lines.append(Line([(String(tail.dropFirst(2)), exception.handled == false ? .alert : .muted)])) }
            }
            lines += frameLines(report, state: state, width: width)
        }
        if !report.tags.isEmpty {
            section("Tags")
            fields(report.tags)
        }
        for context in report.contexts {
            section("Context · " + Sanitizer.sanitize(context.name, limit: 60))
            fields(context.fields)
        }
        if !report.user.isEmpty {
            section("User")
            fields(report.user)
        }
        if !report.request.isEmpty {
            section("Request")
            fields(report.request)
        }
        section("SDK breadcrumbs", report.breadcrumbs.isEmpty ? "  (none sent)" : "  (\(report.breadcrumbs.count), oldest first)")
        for crumb in report.breadcrumbs {
            let when = crumb.timestamp.map { Format.offset($0.timeIntervalSince(event.timestamp)) } ?? "    ?"
            let head = [crumb.level ?? "-", crumb.category ?? crumb.type ?? "-"].joined(separator: " ")
            let prefix = when + " " + Sanitizer.sanitize(head, limit: 40) + "  "
            let indent = String(repeating: " ", count: min(24, DisplayWidth.of(prefix)))
            let body = Sanitizer.sanitize(crumb.message ?? "", limit: 2_000)
            let wrapped = wrap(body, width: max(10, width - DisplayWidth.of(prefix)))
            for (index, part) in wrapped.enumerated() {
                lines.append(Line([(index == 0 ? prefix : indent, .muted), (part, .text)]))
            }
            for field in crumb.data {
                let text = Sanitizer.sanitize(field.name + ": " + field.value, limit: 600)
                lines += wrap(text, width: max(10, width - indent.count)).map { Line([(indent, .muted), ($0, .muted)]) }
            }
        }
        if !report.about.isEmpty {
            section("Sent by the SDK")
            fields(report.about)
        }
        if !report.cut.isEmpty {
            section("Left out by the receiver")
            for note in report.cut { lines += wrap(Sanitizer.sanitize(note, limit: 400), width: width).map { Line([($0, .muted)]) } }
        }
        return lines
    }

    /// The stack trace, then the selected frame's source lines and variables.
    static func frameLines(_ report: ExceptionReport, state: DashboardState, width: Int) -> [Line] {
        let library = state.detail.showsLibraryFrames
        let listed = ListedFrame.frames(of: report, library: library)
        let total = report.exceptions.reduce(0) { $0 + $1.frames.count }
        let folded = total - listed.count
        var lines: [Line] = [Line([])]
        var hint = "  , . select"
        if folded > 0 { hint += " · f shows \(folded) library frame\(folded == 1 ? "" : "s")" }
        if library && listed.contains(where: { $0.frame.inApp != true }) { hint += " · f folds library frames" }
        lines.append(Line([("Stack trace", .title), ("  (most recent call first)", .muted), (hint, .muted)]))
        guard !listed.isEmpty else {
            lines.append(Line([("no frames sent", .muted)]))
            return lines
        }
        let selected = min(max(0, state.detail.frame), listed.count - 1)
        var exception = -1
        for (index, item) in listed.enumerated() {
            if item.exception != exception, report.exceptions.count > 1 {
                exception = item.exception
                let name = report.exceptions[item.exception].type ?? "exception \(item.exception + 1)"
                lines.append(Line([("  " + Sanitizer.sanitize(name, limit: 200), .muted)]))
            }
            exception = item.exception
            let mark = index == selected ? (state.screen.unicode ? "▶ " : "> ") : "  "
            let own = item.frame.inApp == true ? "" : "  (library)"
            let text = DisplayWidth.truncate(
                Sanitizer.sanitize(mark + frameTitle(item.frame), limit: 600), to: max(8, width - DisplayWidth.of(own)))
            lines.append(
                Line([(text, item.frame.inApp == true ? .text : .muted), (own, .muted)], selected: index == selected))
        }
        let omitted = report.exceptions.reduce(0) { $0 + $1.framesOmitted }
        if omitted > 0 { lines.append(Line([("  … \(omitted) frames in the middle not kept", .muted)])) }
        let frame = listed[selected].frame
        lines.append(Line([]))
        lines.append(Line([("Source", .title), ("  " + Sanitizer.sanitize(frameTitle(frame), limit: 300), .muted)]))
        if frame.contextLine == nil && frame.preContext.isEmpty && frame.postContext.isEmpty {
            lines.append(Line([("no source lines sent for this frame", .muted)]))
        } else {
            let first = frame.line.map { $0 - frame.preContext.count }
            let numberWidth = String((frame.line ?? 0) + frame.postContext.count).count
            func code(_ text: String, _ offset: Int, failing: Bool) {
                let number = first.map { String($0 + offset) } ?? ""
                let gutter =
                    (failing ? (state.screen.unicode ? "▶ " : "> ") : "  ")
                    + String(repeating: " ", count: max(0, numberWidth - number.count)) + number + " | "
                let safe = Sanitizer.sanitize(text.replacingOccurrences(of: "\t", with: "    "), limit: 400)
                let shown = DisplayWidth.truncate(safe, to: max(4, width - DisplayWidth.of(gutter)))
                lines.append(Line([(gutter, failing ? .alert : .muted), (shown, failing ? .title : .text)]))
            }
            for (offset, text) in frame.preContext.enumerated() { code(text, offset, failing: false) }
            code(frame.contextLine ?? "(the failing line was not sent)", frame.preContext.count, failing: true)
            for (offset, text) in frame.postContext.enumerated() {
                code(text, frame.preContext.count + 1 + offset, failing: false)
            }
        }
        lines.append(Line([]))
        lines.append(Line([("Variables", .title), (frame.variables.isEmpty ? "  (none sent)" : "", .muted)]))
        let keys = keyWidth(frame.variables.map(\.name), width: width)
        for variable in frame.variables {
            lines += labelled(variable.name, variable.value, role: .text, width: width, labelWidth: keys)
        }
        return lines
    }
}
