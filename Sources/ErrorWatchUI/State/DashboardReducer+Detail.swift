/// Selection in the Errors pane and the detail view: what `j`/`k`, `Enter`, `Esc` and `q` do there.
extension DashboardReducer {
    /// The fingerprints of the Errors pane's rows, in display order (alerts or issues, filtered).
    static func errorRowFingerprints(_ state: DashboardState) -> [String] {
        switch state.errorsView {
        case .alerts: state.visibleAlerts.map(\.fingerprint)
        case .issues: state.visibleIssues.map(\.fingerprint)
        }
    }

    /// The selected row's index in the Errors pane: the selected fingerprint's, or 0 (the newest) when none is
    /// selected or it is gone.
    static func selectedErrorIndex(_ state: DashboardState, rows: [String]) -> Int {
        guard let selected = state.selectedFingerprint, let index = rows.firstIndex(of: selected) else { return 0 }
        return index
    }

    /// `j`/`k`, arrows, PgUp/PgDn with the Errors pane focused move the selection; `g` selects the oldest row,
    /// `G` the newest; the view scrolls to keep the selection visible. The first (newest) row follows the newest.
    static func moveErrorSelection(_ command: DashboardCommand, state: inout DashboardState) {
        let rows = errorRowFingerprints(state)
        guard !rows.isEmpty else { return }
        let page = max(1, DashboardLayout(for: state).errorRows)
        var index = selectedErrorIndex(state, rows: rows)
        switch command {
        case .scrollUp: index -= 1
        case .scrollDown: index += 1
        case .pageUp: index -= page
        case .pageDown: index += page
        // As in Logs: `g` goes to the oldest (the last row here), `G` to the newest and follows it.
        case .scrollTop: index = rows.count - 1
        default: index = 0
        }
        index = min(max(0, index), rows.count - 1)
        state.selectedFingerprint = index == 0 ? nil : rows[index]
        if index < state.errorScroll { state.errorScroll = index }
        if index >= state.errorScroll + page { state.errorScroll = index - page + 1 }
        state.errorScroll = min(max(0, state.errorScroll), max(0, rows.count - page))
    }

    /// `Enter`: opens the focused pane's selection (an alert or issue in Errors, the selected or newest line in
    /// Logs) in a detail view.
    static func openDetail(state: inout DashboardState) -> Bool {
        let target: DetailTarget
        if state.focus == .errors {
            let rows = errorRowFingerprints(state)
            guard !rows.isEmpty else {
                state.statusMessage = state.errorsView == .alerts ? "no alert to open" : "no issue to open"
                return true
            }
            let fingerprint = rows[selectedErrorIndex(state, rows: rows)]
            target = state.errorsView == .alerts ? .alert(fingerprint) : .issue(fingerprint)
        } else {
            let visible = LogsPane.visibleRows(state, count: max(1, DashboardLayout(for: state).logRows))
            guard
                let event = state.selectedSequence.flatMap({ selected in visible.first { $0.sequence == selected } })
                    ?? visible.last
            else {
                state.statusMessage = "no line to open"
                return true
            }
            target = .event(event.sequence)
        }
        push(target, state: &state)
        return true
    }

    static func push(_ target: DetailTarget, state: inout DashboardState) {
        state.detailStack.append(target)
        if state.detailStack.count > 8 { state.detailStack.removeFirst() }
        state.detailScroll = 0
        state.detailOccurrence = 0
        state.showsHelp = false
    }

    static func closeDetail(state: inout DashboardState) {
        state.detailStack.removeLast()
        state.detailScroll = 0
        state.detailOccurrence = 0
    }

    /// Keys while a detail view is open. `nil` for keys that keep their usual meaning (help, theme, redraw).
    static func handleDetailKey(_ key: Key, state: inout DashboardState) -> Bool? {
        let page = max(1, DashboardLayout(for: state).bodyRows - 2)
        switch key {
        case .escape, .character("q"), .backspace:
            closeDetail(state: &state)
        case .character("j"), .down: state.detailScroll += 1
        case .character("k"), .up: state.detailScroll = max(0, state.detailScroll - 1)
        case .pageDown, .character(" "): state.detailScroll += page
        case .pageUp: state.detailScroll = max(0, state.detailScroll - page)
        case .character("g"), .home: state.detailScroll = 0
        case .character("G"), .end: state.detailScroll = Int.max / 2
        case .character("]"), .character("["):
            let count = DetailView.occurrences(of: state.detail!, in: state).count
            guard count > 0 else { return false }
            let step = key == .character("]") ? 1 : -1
            state.detailOccurrence = min(max(0, state.detailOccurrence + step), count - 1)
        case .enter:
            let occurrences = DetailView.occurrences(of: state.detail!, in: state)
            guard state.detailOccurrence < occurrences.count else { return false }
            push(.event(occurrences[state.detailOccurrence].sequence), state: &state)
        case .character("?"), .character("t"), .ctrl:
            return nil
        default:
            return false
        }
        return true
    }
}
