import ErrorStreaming
import Foundation

/// The detail view: one alert, issue or event read whole, filling the dashboard's body (header and footer stay).
///
/// An event shows every field with a label: messages wrapped to the width, never truncated; type, code, category,
/// severity, origin, attempt, source; service, process, host and where it came from; the time, absolute and
/// relative; the attributes, sorted; the stack trace or source location; how the handler tree dealt with it;
/// and the breadcrumbs, the 20 lines of the same service before it. An alert or issue shows its count, first and
/// last seen and its occurrences, newest first; `[`/`]` select one and `Enter` opens it.
public enum DetailView: Widget {
    /// One line of the view: segments of text, each in a theme role.
    struct Line {
        var segments: [(text: String, role: ThemeRole)]
        /// Whether the line is the selected occurrence.
        var selected = false

        init(_ segments: [(String, ThemeRole)], selected: Bool = false) {
            self.segments = segments.map { (text: $0.0, role: $0.1) }
            self.selected = selected
        }
    }

    /// How many lines of a stack trace are shown.
    public static let stackTraceLineLimit = 200
    /// How many breadcrumbs are listed before an event.
    public static let breadcrumbLimit = 20
    static let labelWidth = 16

    /// A detail view reads across the slices: the event, alert, issue or template, its occurrences, handling and
    /// trace.
    public static func part(of state: DashboardState) -> DashboardState { state }

    /// Draws the open detail view into `area` (the dashboard's body), scrolled as the keys asked and kept within its
    /// content (``DetailScroll/offset(lines:rows:)``).
    public static func render(_ input: WidgetInput<DetailView>, in area: Rect, into buffer: inout ScreenBuffer) {
        let (state, palette) = (input.part, input.palette)
        guard let target = state.detail.target, !area.isEmpty else { return }
        buffer.fill(area, style: palette[.text])
        buffer.drawBox(
            area, title: title(of: target, in: state), borderStyle: palette[.focusedBorder],
            titleStyle: palette[.focusedTitle], unicode: state.screen.unicode)
        let inner = area.inset(by: 1)
        guard !inner.isEmpty else { return }
        if case .metric(let id) = target {
            // A chart fills the view; it does not scroll.
            MetricChartView.draw(id, state: state, in: inner, into: &buffer, palette: palette)
            return
        }
        let content = lines(of: target, in: state, width: inner.width - 2)
        var scroll = state.detail.scroll.offset(lines: content.count, rows: inner.height)
        if case .trace = target, let selected = content.firstIndex(where: \.selected) {
            // The selected span stays in view.
            scroll = min(selected, max(scroll, selected - inner.height + 1))
        }
        let hint = "\(min(content.count, scroll + inner.height))/\(content.count)"
        if area.width >= DisplayWidth.of(hint) + 20 {
            buffer.write(
                " \(hint) ", x: area.maxX - DisplayWidth.of(hint) - 4, y: area.y, style: palette[.muted], clip: area)
        }
        for (row, line) in content.dropFirst(scroll).prefix(inner.height).enumerated() {
            let y = inner.y + row
            let rowRect = Rect(x: inner.x, y: y, width: inner.width, height: 1)
            if line.selected { buffer.fill(rowRect, style: palette[.selection]) }
            var column = inner.x + 1
            for segment in line.segments {
                let style =
                    line.selected ? palette[segment.role].on(palette[.selection]).adding(.bold) : palette[segment.role]
                column = buffer.write(segment.text, x: column, y: y, style: style, clip: rowRect)
            }
        }
    }

    static func title(of target: DetailTarget, in state: DashboardState) -> String {
        switch target {
        case .event(let sequence):
            guard let event = event(sequence, in: state) else { return "Event" }
            return event.kind == .error ? "Error · \(event.typeName)" : "Log line"
        case .alert: return "Alert"
        case .issue: return "Issue"
        case .pattern: return "Pattern"
        case .trace(let id): return "Trace · \(id.prefix(16))"
        case .span(let traceID, let spanID):
            guard let span = state.span(spanID, of: traceID) else { return "Span" }
            return "Span · " + Sanitizer.sanitize(span.name, limit: 60)
        case .metric(let id):
            guard let series = state.feeds.metrics.series.first(where: { $0.id == id }) else { return "Chart" }
            return "Chart · " + Sanitizer.sanitize(series.name, limit: 60)
        }
    }

    /// The event with this sequence number, if Logs still keeps it.
    static func event(_ sequence: UInt64, in state: DashboardState) -> DashboardEvent? { state.event(sequence) }

    // MARK: Content

    /// Every line of the view for `target` at `width` columns.
    static func lines(of target: DetailTarget, in state: DashboardState, width: Int) -> [Line] {
        let width = max(20, width)
        switch target {
        case .event(let sequence):
            guard let event = event(sequence, in: state) else {
                return [
                    Line([
                        ("This event is no longer kept in Logs (older than the last ", .muted),
                        ("\(Format.count(state.logs.capacity)) lines", .muted), (").", .muted),
                    ])
                ]
            }
            return eventLines(event, state: state, width: width)
        case .alert(let fingerprint):
            guard let alert = state.errors.alerts.first(where: { $0.fingerprint == fingerprint }) else {
                return [Line([("This alert expired.", .muted)])]
            }
            return alertLines(alert, state: state, width: width)
        case .issue(let fingerprint):
            guard let issue = state.errors.issues.first(where: { $0.fingerprint == fingerprint }) else {
                return [Line([("This issue is no longer kept.", .muted)])]
            }
            return issueLines(issue, state: state, width: width)
        case .pattern(let id): return patternLines(id, state: state, width: width)
        case .trace(let id): return traceDetailLines(id, state: state, width: width)
        case .span(let traceID, let spanID): return spanLines(spanID, of: traceID, state: state, width: width)
        case .metric: return []
        }
    }

    static func eventLines(_ event: DashboardEvent, state: DashboardState, width: Int) -> [Line] {
        var lines: [Line] = []
        func field(_ label: String, _ value: String?, _ role: ThemeRole = .text) {
            guard let value, !value.isEmpty else { return }
            lines += labelled(label, value, role: role, width: width)
        }
        func section(_ title: String) {
            lines.append(Line([]))
            lines.append(Line([(title, .title)]))
        }
        if event.kind == .error {
            if let logMessage = event.logMessage {
                // Both messages, each labelled: the line's own sentence and the exception's.
                field("Log message", logMessage)
                field("Exception", event.message)
            } else {
                field("Message", event.message)
            }
            field("User message", event.userMessage)
            lines.append(Line([]))
            field("Type", event.typeName, .title)
            if event.qualifiedTypeName != event.typeName { field("Qualified type", event.qualifiedTypeName) }
            field("Code", event.shownCode.flatMap { $0.isEmpty ? nil : $0 } ?? "—", .title)
            field("Category", event.category?.label ?? "— (unclassified)")
            field("Severity", event.level.description)
            if event.originSent {
                field("Origin", event.origin == .background ? "background (counted, never alerted)" : "user")
            }
            field("Attempt", event.attempt.map(String.init))
        } else {
            field("Message", event.message)
            lines.append(Line([]))
            field("Level", event.level.description)
        }
        field("Source", event.source)
        field("Service", event.service ?? (event.from == nil ? "this process" : "not named by the producer"))
        field("Process", event.pid.map { "pid \($0)" })
        field("Host", event.host)
        field("From", event.from)
        let age = state.screen.now.timeIntervalSince(event.timestamp)
        field("Time", Format.timestamp(event.timestamp) + "  (" + Format.relative(age) + ")")
        field("Received", event.receivedAt.map(Format.timestamp))
        if let skew = event.skew {
            field(
                "Clock skew",
                "skewed: the line's own time is " + Format.age(abs(skew)) + (skew < 0 ? " before" : " after")
                    + " it was read; shown as sent", .alert)
        }
        let attributes = event.metadata.filter { !Self.shownElsewhere.contains($0.key) }.sorted { $0.key < $1.key }
            .prefix(Self.attributeLimit)
        if !attributes.isEmpty {
            section("Attributes")
            let keys = keyWidth(attributes.map(\.key), width: width)
            for (key, value) in attributes {
                lines += labelled(key, value, role: .text, width: width, labelWidth: keys)
            }
        }
        if let location = event.location {
            section("Where")
            let text = Sanitizer.sanitize(location.description, limit: 300)
            lines += wrap(text, width: width).map { Line([($0, .text)]) }
        }
        if let trace = event.stackTrace, !trace.isEmpty {
            // Beside a report's frames (read from this trace, or sent with it), the text is the trace as printed.
            section(event.report == nil ? "Stack trace" : "Stack trace as printed")
            // Each line is made safe on its own, so the trace keeps its lines and indentation.
            for line in trace.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.stackTraceLineLimit)
            {
                // Tabs indent Go's and Java's frames: shown as spaces, not as the visible ␉ of other text.
                let safe = Sanitizer.sanitize(line.replacingOccurrences(of: "\t", with: "    "), limit: 400)
                lines += wrap(safe, width: width).map { Line([($0, .muted)]) }
            }
        }
        if let report = event.report { lines += reportLines(report, of: event, state: state, width: width) }
        if let handling = state.logs.handling(for: event.sequence) {
            section("Handling")
            lines += handlingLines(handling, state: state, width: width)
        }
        lines += traceLines(event, state: state, width: width)
        let crumbs = traceBreadcrumbs(of: event, in: state) ?? breadcrumbs(before: event, in: state)
        section(breadcrumbTitle(event, count: crumbs.count))
        for crumb in crumbs {
            let offset = crumb.timestamp.timeIntervalSince(event.timestamp)
            var text = crumb.logMessage.map { $0 + " — " + crumb.message } ?? crumb.message
            if let code = crumb.shownCode, !code.isEmpty { text = "[\(code)] " + text }
            text = Sanitizer.sanitize(text, limit: 400)
            let prefix = Format.offset(offset) + " " + crumb.level.tag + " "
            let wrapped = wrap(text, width: max(10, width - DisplayWidth.of(prefix)))
            for (index, part) in wrapped.enumerated() {
                lines.append(
                    Line([
                        (index == 0 ? prefix : String(repeating: " ", count: DisplayWidth.of(prefix)), .muted),
                        (part, crumb.kind == .error ? .text : .muted),
                    ]))
            }
        }
        return lines
    }

    /// The handler tree's path, outcome and `finally` result.
    static func handlingLines(_ handling: HandlingSummary, state: DashboardState, width: Int) -> [Line] {
        let arrow = state.screen.unicode ? " → " : " -> "
        return labelled(
            "Path", handling.path.isEmpty ? "(no node's action ran)" : handling.path.joined(separator: arrow),
            role: .text, width: width)
            + labelled("Outcome", handling.outcome, role: handling.handled ? .healthOk : .alert, width: width)
            + labelled("finally", handling.handled ? "handled" : "not handled", role: .muted, width: width)
    }

    /// How the newest occurrence of a group that has a handling report was dealt with.
    static func latestHandling(_ target: DetailTarget, state: DashboardState, width: Int) -> [Line] {
        guard
            let (occurrence, handling) = state.occurrences(of: target).lazy
                .compactMap({ o in state.logs.handling(for: o.sequence).map { (o, $0) } }).first
        else { return [] }
        return [
            Line([]),
            Line([
                ("Handling of the newest handled occurrence", .title),
                ("  " + Format.clock(occurrence.timestamp), .muted),
            ]),
        ]
            + handlingLines(handling, state: state, width: width)
    }

    /// How many attributes are listed.
    public static let attributeLimit = 64

    /// Metadata keys already shown as their own field.
    static let shownElsewhere: Set<String> = ["service.name", "process.pid", "host.name"]

    /// The last ``breadcrumbLimit`` lines of the same service before `event`, oldest first; for an event whose
    /// producer gave no service name, of the same source (a pipe, a file, a connection, or this process).
    static func breadcrumbs(before event: DashboardEvent, in state: DashboardState) -> [DashboardEvent] {
        guard let position = state.logs.lines.lastIndex(where: { $0.sequence == event.sequence }) else { return [] }
        var found: [DashboardEvent] = []
        var index = position
        while index > state.logs.lines.startIndex, found.count < breadcrumbLimit {
            index -= 1
            let candidate = state.logs.lines[index]
            guard candidate.timestamp <= event.timestamp else { continue }
            let same = event.service != nil ? candidate.service == event.service : candidate.from == event.from
            if same, candidate.service == event.service { found.append(candidate) }
        }
        return found.reversed()
    }

    static func alertLines(_ alert: AlertRecord, state: DashboardState, width: Int) -> [Line] {
        var lines: [Line] = []
        lines += labelled("Title", alert.title, role: .title, width: width)
        lines += labelled("Count", Format.count(alert.count), role: .text, width: width)
        lines += labelled("Code", alert.shownCode.isEmpty ? "—" : alert.shownCode, role: .text, width: width)
        lines += labelled("Type", alert.typeName, role: .text, width: width)
        lines += labelled("Category", alert.category?.label ?? "— (unclassified)", role: .text, width: width)
        lines += labelled("Severity", alert.severity.description, role: .text, width: width)
        lines += labelled("Source", alert.source, role: .text, width: width)
        lines += times(
            first: alert.firstSeen, last: alert.lastSeen, state: state, width: width,
            received: (alert.firstReceived, alert.lastReceived))
        lines += latestHandling(.alert(alert.fingerprint), state: state, width: width)
        lines += occurrenceLines(.alert(alert.fingerprint), state: state, width: width)
        return lines
    }

    static func issueLines(_ issue: IssueRecord, state: DashboardState, width: Int) -> [Line] {
        var lines: [Line] = []
        lines += labelled("Type", issue.typeName, role: .title, width: width)
        if issue.qualifiedTypeName != issue.typeName {
            lines += labelled("Qualified type", issue.qualifiedTypeName, role: .text, width: width)
        }
        lines += labelled("Code", issue.shownCode.isEmpty ? "—" : issue.shownCode, role: .text, width: width)
        lines += labelled(
            "Count",
            Format.count(issue.count) + " (\(Format.count(issue.userCount)) user, "
                + "\(Format.count(issue.count - issue.userCount)) background)", role: .text, width: width)
        lines += labelled("Category", issue.category?.label ?? "— (unclassified)", role: .text, width: width)
        lines += labelled("Severity", issue.severity.description, role: .text, width: width)
        let services =
            !issue.services.isEmpty
            ? issue.services.joined(separator: ", ")
            : issue.readFrom == ["this process"] ? "this process" : "— (none named by its producers)"
        lines += labelled("Services", services, role: issue.services.isEmpty ? .muted : .text, width: width)
        if !issue.readFrom.isEmpty, issue.readFrom != ["this process"] {
            lines += labelled("Read from", issue.readFrom.joined(separator: ", "), role: .text, width: width)
        }
        lines += times(first: issue.firstSeen, last: issue.lastSeen, state: state, width: width)
        lines += triageLines(issue, state: state, width: width)
        if !issue.perSecond.isEmpty {
            lines.append(lastMinute(issue.perSecond(endingAt: state.screen.now), state, width))
        }
        lines += latestHandling(.issue(issue.fingerprint), state: state, width: width)
        lines += occurrenceLines(.issue(issue.fingerprint), state: state, width: width)
        return lines
    }

    /// `Last 60 s` and a sparkline of `perSecond`.
    static func lastMinute(_ perSecond: [Int], _ state: DashboardState, _ width: Int) -> Line {
        Line([
            (pad("Last 60 s"), .muted),
            (
                Sparkline.render(perSecond, width: min(60, width - labelWidth), unicode: state.screen.unicode),
                .sparkline
            ),
        ])
    }

    /// First and last seen, the producers' times; with when the dashboard read them beside, where that differs by
    /// a second or more (an old file read now, a late batch).
    static func times(
        first: Date, last: Date, state: DashboardState, width: Int, received: (first: Date, last: Date)? = nil
    ) -> [Line] {
        func text(_ date: Date, _ read: Date?) -> String {
            var text = Format.timestamp(date) + "  (" + Format.relative(state.screen.now.timeIntervalSince(date)) + ")"
            if let read, abs(read.timeIntervalSince(date)) >= 1 { text += ", received " + Format.timestamp(read) }
            return text
        }
        return labelled("First seen", text(first, received?.first), role: .text, width: width)
            + labelled("Last seen", text(last, received?.last), role: .text, width: width)
    }

    static func occurrenceLines(
        _ target: DetailTarget, state: DashboardState, width: Int, title: String = "Occurrences, newest first"
    ) -> [Line] {
        let occurrences = state.occurrences(of: target)
        var lines = [Line([]), Line([(title, .title), ("   [ ] select, Enter opens", .muted)])]
        if occurrences.isEmpty { lines.append(Line([("none kept", .muted)])) }
        let selected = min(state.detail.occurrence, max(0, occurrences.count - 1))
        for (index, occurrence) in occurrences.enumerated() {
            let prefix =
                Format.clock(occurrence.timestamp)
                + (occurrence.service.map { " " + Sanitizer.sanitize($0, limit: 40) } ?? "") + "  "
            let text = DisplayWidth.truncate(occurrence.message, to: max(4, width - DisplayWidth.of(prefix)))
            lines.append(Line([(prefix, .muted), (text, .text)], selected: index == selected))
        }
        return lines
    }

    /// `Label         value`, the value made safe to draw and wrapped under itself; labels take `labelWidth`
    /// columns (a section of keys sizes it to its longest key, ``keyWidth(_:width:)``).
    static func labelled(
        _ label: String, _ value: String, role: ThemeRole, width: Int, labelWidth: Int = DetailView.labelWidth
    ) -> [Line] {
        let valueWidth = max(8, width - labelWidth)
        let label = Sanitizer.sanitize(label, limit: 200)
        let value = Sanitizer.sanitize(value, limit: DashboardReducer.messageLimit)
        return wrap(value, width: valueWidth).enumerated().map { index, part in
            Line([
                (index == 0 ? pad(label, labelWidth) : String(repeating: " ", count: labelWidth), .muted),
                (part, role),
            ])
        }
    }

    /// The label column for a section of `keys` (attributes, tags): as wide as the longest key and a space, at least
    /// ``labelWidth`` and at most half the view, so keys like `exception.escaped` are whole wherever there is room.
    static func keyWidth(_ keys: some Sequence<String>, width: Int) -> Int {
        let longest = keys.map { DisplayWidth.of(Sanitizer.sanitize($0, limit: 200)) }.max() ?? 0
        return max(labelWidth, min(longest + 1, width / 2))
    }

    static func pad(_ label: String, _ width: Int = DetailView.labelWidth) -> String {
        let cut = DisplayWidth.truncate(label, to: width - 1)
        return cut + String(repeating: " ", count: max(1, width - DisplayWidth.of(cut)))
    }

    /// `text` in lines of at most `width` columns: at spaces where possible, hard-split otherwise; newlines kept.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var result: [String] = []
        for whole in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // Leading spaces (a stack frame's indent) are kept; the rest wraps after them.
            let indentCount = min(whole.prefix { $0 == " " }.count, width / 2)
            let indent = String(repeating: " ", count: indentCount)
            let paragraph = whole.drop { $0 == " " }
            var line = indent
            var lineWidth = indentCount
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var word = Substring(word)
                let separator = lineWidth == indentCount ? 0 : 1
                let wordWidth = DisplayWidth.of(word)
                if lineWidth + separator + wordWidth <= width {
                    if separator == 1 { line += " " }
                    line += word
                    lineWidth += separator + wordWidth
                    continue
                }
                if lineWidth > indentCount { result.append(line) }
                line = indent
                lineWidth = indentCount
                // A word longer than the line is split across lines.
                while indentCount + DisplayWidth.of(word) > width {
                    var piece = indent
                    var pieceWidth = indentCount
                    var rest = word.startIndex
                    for character in word {
                        let w = DisplayWidth.of(character)
                        if pieceWidth + w > width { break }
                        piece.append(character)
                        pieceWidth += w
                        rest = word.index(after: rest)
                    }
                    if pieceWidth == indentCount { break }
                    result.append(piece)
                    word = word[rest...]
                }
                line = indent + word
                lineWidth = indentCount + DisplayWidth.of(word)
            }
            result.append(line)
        }
        return result
    }
}
