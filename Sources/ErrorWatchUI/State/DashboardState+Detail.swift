import ErrorStreaming

/// What a detail view lists, read from the slices: the keys move through it (`[`/`]`, `,`/`.`, `Enter`) and the
/// detail view draws it, so both count the same rows.
extension DashboardState {
    /// The event with this sequence number, if Logs still keeps it.
    func event(_ sequence: UInt64) -> DashboardEvent? {
        logs.lines.last { $0.sequence == sequence }
    }

    /// The occurrences a group's view lists, newest first: an issue's (counted upstream), or the Logs lines that
    /// an alert coalesced or a template's most recent lines that Logs still keeps.
    func occurrences(of target: DetailTarget) -> [IssueRecord.Occurrence] {
        switch target {
        case .event, .trace, .metric: return []
        case .span(let traceID, let spanID):
            // The span's own log lines and errors, as Logs still keeps them.
            let hex = TraceSpan.hex(spanID)
            return keptLines(limit: IssueRecord.occurrenceLimit) { $0.traceID == traceID && $0.spanID == hex }
        case .issue(let fingerprint):
            return errors.issues.first { $0.fingerprint == fingerprint }?.recent ?? []
        case .alert(let fingerprint):
            return keptLines(limit: IssueRecord.occurrenceLimit) { $0.fingerprint == fingerprint }
        case .pattern(let id):
            guard let id = patterns.resolved(id) else { return [] }
            let wanted = Set(patterns.patterns[id].recent)
            return keptLines(limit: wanted.count) { wanted.contains($0.sequence) }
        }
    }

    /// The rows of `traceID`'s waterfall, as its detail view draws them: what `j`/`k` select there.
    func traceRows(of traceID: String) -> [TraceTree.Row] {
        traces.snapshot(of: traceID).map(TraceTree.rows(of:)) ?? []
    }

    /// The span `spanID` of `traceID`, as the trace store last sent it.
    func span(_ spanID: UInt64, of traceID: String) -> TraceSpan? {
        traces.snapshot(of: traceID)?.spans.first { $0.spanID == spanID }
    }

    /// The newest `limit` Logs lines that pass `wanted`, newest first, as occurrences.
    private func keptLines(limit: Int, _ wanted: (DashboardEvent) -> Bool) -> [IssueRecord.Occurrence] {
        var found: [IssueRecord.Occurrence] = []
        var index = logs.lines.endIndex
        while index > logs.lines.startIndex, found.count < limit {
            index -= 1
            let event = logs.lines[index]
            guard wanted(event) else { continue }
            found.append(
                IssueRecord.Occurrence(
                    sequence: event.sequence, timestamp: event.timestamp, message: event.message,
                    service: event.service))
        }
        return found
    }

    /// The frames the open event's reported stack trace lists now (none without a report): what `,` and `.` move
    /// through.
    var listedFrames: [ListedFrame] {
        guard case .event(let sequence)? = detail.target, let report = event(sequence)?.report else { return [] }
        return ListedFrame.frames(of: report, library: detail.showsLibraryFrames)
    }
}
