import ErrorStreaming
import Foundation

/// The detail view of a template of the Patterns view: the template, its count, levels, first and last seen, the
/// last minute, and its most recent lines that Logs still keeps, newest first (`[`/`]` select one, `Enter` opens it).
extension DetailView {
    static func patternLines(_ id: Int, state: DashboardState, width: Int) -> [Line] {
        guard let id = state.patterns.resolved(id) else {
            return [Line([("This pattern is no longer kept.", .muted)])]
        }
        let pattern = state.patterns.patterns[id]
        var lines: [Line] = []
        lines += labelled("Template", pattern.template, role: .title, width: width)
        lines += labelled("Count", Format.count(pattern.count), role: .text, width: width)
        let levels = pattern.levelsSeen.map { "\($0.description) \(Format.count(pattern.levels[$0.rawValue]))" }
        lines += labelled("Levels", levels.joined(separator: ", "), role: .text, width: width)
        lines += times(first: pattern.firstSeen, last: pattern.lastSeen, state: state, width: width)
        lines.append(lastMinute(pattern.perSecond(endingAt: state.screen.now), state, width))
        lines += occurrenceLines(.pattern(id), state: state, width: width)
        return lines
    }

    /// The template's most recent lines still kept in Logs, newest first.
    static func patternOccurrences(_ id: Int, in state: DashboardState) -> [IssueRecord.Occurrence] {
        state.occurrences(of: .pattern(id))
    }
}
