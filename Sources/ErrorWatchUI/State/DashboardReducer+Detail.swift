/// Selection in the Errors pane and the detail view: what `j`/`k`, `Enter`, `Esc` and `q` do there.
extension DashboardReducer {
    /// `j`/`k`, arrows, PgUp/PgDn with the Errors pane focused move the selection; `g` selects the oldest row,
    /// `G` the newest; the view scrolls to keep the selection visible. The first (newest) row follows the newest.
    static func moveErrorSelection(_ command: DashboardCommand, state: inout DashboardState) {
        if state.errors.view == .patterns {
            movePatternSelection(command, state: &state)
            return
        }
        let rows = state.errors.rowFingerprints(state.filter, at: state.screen.now)
        guard !rows.isEmpty else { return }
        let page = max(1, DashboardLayout(for: state).errorRows)
        var index = state.errors.selectedIndex(rows: rows)
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
        state.errors.selectedFingerprint = index == 0 ? nil : rows[index]
        if index < state.errors.scroll { state.errors.scroll = index }
        if index >= state.errors.scroll + page { state.errors.scroll = index - page + 1 }
        state.errors.scroll = min(max(0, state.errors.scroll), max(0, rows.count - page))
    }

    /// `Enter`: opens the focused pane's selection (an alert or issue in Errors, the selected or newest line in
    /// Logs) in a detail view.
    static func openDetail(state: inout DashboardState) -> Bool {
        let target: DetailTarget
        if state.screen.focus == .errors, state.errors.view == .patterns {
            guard let pattern = state.patterns.selected(state.filter) else {
                state.screen.statusMessage = "no pattern to open"
                return true
            }
            target = .pattern(pattern.id)
        } else if state.screen.focus == .errors {
            let rows = state.errors.rowFingerprints(state.filter, at: state.screen.now)
            guard !rows.isEmpty else {
                state.screen.statusMessage = state.errors.view == .alerts ? "no alert to open" : "no issue to open"
                return true
            }
            let fingerprint = rows[state.errors.selectedIndex(rows: rows)]
            target = state.errors.view == .alerts ? .alert(fingerprint) : .issue(fingerprint)
        } else {
            let visible = LogsPane.visibleRows(
                state.logs, filter: state.filter, count: max(1, DashboardLayout(for: state).logRows))
            guard
                let event = state.logs.selectedSequence.flatMap({ selected in
                    visible.first { $0.sequence == selected }
                }) ?? visible.last
            else {
                state.screen.statusMessage = "no line to open"
                return true
            }
            target = .event(event.sequence)
        }
        push(target, state: &state)
        return true
    }

    /// Opens `target` in a detail view, closing the help overlay.
    static func push(_ target: DetailTarget, state: inout DashboardState) {
        state.detail.push(target)
        state.screen.showsHelp = false
    }

    /// Keys while a detail view is open. `nil` for keys that keep their usual meaning (help, theme, redraw).
    static func handleDetailKey(_ key: Key, state: inout DashboardState) -> Bool? {
        let page = max(1, DashboardLayout(for: state).bodyRows - 2)
        switch key {
        case .escape, .character("q"), .backspace:
            state.detail.close()
        case .character("j"), .down: state.detail.scroll += 1
        case .character("k"), .up: state.detail.scroll = max(0, state.detail.scroll - 1)
        case .pageDown, .character(" "): state.detail.scroll += page
        case .pageUp: state.detail.scroll = max(0, state.detail.scroll - page)
        case .character("g"), .home: state.detail.scroll = 0
        case .character("G"), .end: state.detail.scroll = Int.max / 2
        case .character("]"), .character("["):
            let count = DetailView.occurrences(of: state.detail.target!, in: state).count
            guard count > 0 else { return false }
            let step = key == .character("]") ? 1 : -1
            state.detail.occurrence = min(max(0, state.detail.occurrence + step), count - 1)
        case .enter:
            let occurrences = DetailView.occurrences(of: state.detail.target!, in: state)
            guard state.detail.occurrence < occurrences.count else { return false }
            push(.event(occurrences[state.detail.occurrence].sequence), state: &state)
        case .character("f"), .character(","), .character("."):
            return handleReportKey(key, state: &state)
        case .character("?"), .character("t"), .ctrl:
            return nil
        default:
            // Triage keys act on the issue shown.
            if case .dashboard(.triage)? = state.keymap.command(for: key), case .issue? = state.detail.target {
                return nil
            }
            return false
        }
        return true
    }
}
