/// Key handling: the keymap decides what a key means; this file decides what that does to the state. Keys reach
/// across slices (a query changes what Logs and Errors list), so the root reducer handles them, through each
/// slice's own operations.
extension DashboardReducer {
    /// Returns whether the state changed. When the key changed what the filters let through, the Logs slice's
    /// filtered lines are rebuilt once.
    static func handleKey(_ key: Key, state: inout DashboardState, effects: inout [DashboardEffect]) -> Bool {
        let filter = state.filter
        defer { if !state.filter.selectsSameLines(as: filter) { state.logs.refilter(state.filter) } }
        if state.filter.isEditing, let handled = editFilter(key, state: &state) { return handled }
        if state.detail.target != nil, state.screen.showsHelp {
            // Help over a detail view: only closing it, so `q` never quits from under two layers.
            guard key == .character("?") || key == .escape || key == .character("q") else { return false }
            state.screen.showsHelp = false
            return true
        }
        if state.detail.target != nil, let handled = handleDetailKey(key, state: &state) { return handled }
        guard let binding = state.keymap.binding(for: key) else { return false }
        switch binding.command {
        case .app(let command):
            effects.append(.appCommand(command))
            state.screen.statusMessage = "▶ " + binding.summary
            return true
        case .dashboard(let command):
            return perform(command, key: key, state: &state, effects: &effects)
        }
    }

    /// Typing a query after `/`: `Enter` applies it if it parses (else the prompt says what is wrong and where,
    /// and the previous query stays), `Esc` leaves it as it was. Returns `nil` for keys that keep their meaning.
    static func editFilter(_ key: Key, state: inout DashboardState) -> Bool? {
        switch key {
        case .character(let c):
            guard state.filter.draft.count < 200 else { return false }
            state.filter.draft += Sanitizer.sanitize(String(c))
            state.filter.error = nil
        case .backspace, .delete:
            guard !state.filter.draft.isEmpty else { return false }
            state.filter.draft.removeLast()
            state.filter.error = nil
        case .enter:
            switch Query.parse(state.filter.draft) {
            case .success(let query):
                state.filter.query = query
                state.filter.isEditing = false
                state.filter.error = nil
                state.logs.scroll = 0
                state.errors.scroll = 0
                state.errors.selectedFingerprint = nil
            case .failure(let error):
                state.filter.error = error
            }
        case .escape:
            state.filter.isEditing = false
            state.filter.error = nil
            state.filter.draft = state.filter.query.text
        default:
            return nil
        }
        return true
    }

    static func perform(
        _ command: DashboardCommand, key: Key, state: inout DashboardState, effects: inout [DashboardEffect]
    ) -> Bool {
        // Tab cycles the panes on screen: a pane the layout has no room for (or nothing to show in) is skipped.
        let layout = DashboardLayout(for: state)
        let shown = Pane.allCases.filter { !layout.rect(of: $0).isEmpty }
        let panes = shown.isEmpty ? [Pane.errors] : shown
        let focus = state.screen.focus
        switch command {
        case .quit:
            state.quitRequested = true
            effects.append(.quit)
        case .toggleHelp:
            state.screen.showsHelp.toggle()
        case .focusNext:
            state.screen.focus = panes[((panes.firstIndex(of: focus) ?? -1) + 1) % panes.count]
        case .focusPrevious:
            state.screen.focus = panes[((panes.firstIndex(of: focus) ?? 0) + panes.count - 1) % panes.count]
        case .scrollUp, .scrollDown, .pageUp, .pageDown, .scrollTop, .scrollBottom:
            if focus != .errors {
                state.logs.scroll(command, rows: max(1, layout.logRows), filter: state.filter)
            } else {
                moveErrorSelection(command, state: &state)
            }
        case .beginTextFilter:
            state.filter.isEditing = true
            state.filter.draft = state.filter.query.text
            state.filter.error = nil
            state.screen.showsHelp = false
        case .cancel:
            if state.screen.showsHelp {
                state.screen.showsHelp = false
            } else if !state.detail.stack.isEmpty {
                state.detail.close()
            } else if !state.filter.query.isEmpty {
                state.filter.query = .empty
                state.logs.scroll = 0
            } else if state.logs.selectedSequence != nil {
                state.logs.selectedSequence = nil
            } else {
                return false
            }
        case .toggleTypeFilter:
            guard case .character(let c) = key, let digit = c.wholeNumberValue else { return false }
            let types = state.feeds.metrics.errorsByType
            guard digit >= 1, digit <= types.count else {
                state.screen.statusMessage = "no error type \(digit) in Metrics"
                return true
            }
            state.filter.toggleType(types[digit - 1].name)
            state.logs.scroll = 0
            state.errors.scroll = 0
        case .clearTypeFilters:
            guard !state.filter.types.isEmpty else { return false }
            state.filter.types = []
            state.logs.scroll = 0
        case .togglePause:
            state.logs.togglePause()
        case .nextError, .previousError:
            return selectError(newer: command == .nextError, state: &state)
        case .cycleTheme:
            state.screen.cycleTheme()
        case .redraw:
            effects.append(.redrawAll)
        case .openDetail:
            let opened = openDetail(state: &state)
            if case .issue(let fingerprint)? = state.detail.target {
                markOpened(fingerprint, state: &state, effects: &effects)
            }
            return opened
        case .triage(let action):
            return triage(action, state: &state, effects: &effects)
        case .toggleErrorsView:
            // Alerts → Issues → Patterns → Alerts.
            state.errors.view =
                switch state.errors.view {
                case .alerts: .issues
                case .issues: .patterns
                case .patterns: .alerts
                }
            state.errors.selectedFingerprint = nil
            state.errors.scroll = 0
            state.screen.focus = .errors
        case .saveMatching:
            if let progress = state.logs.refilterProgress {
                // Saving now would leave out the history not examined yet.
                state.screen.statusMessage = "still filtering (\(Int(progress * 100))%): save when it is done"
                return true
            }
            let matching = state.matchingLogs
            guard !matching.isEmpty else {
                state.screen.statusMessage = "nothing to save: no kept event matches"
                return true
            }
            effects.append(.export(Array(matching)))
            state.screen.statusMessage = "saving \(Format.count(matching.count)) events…"
        case .cycleIssueOrder:
            let orders = IssueOrder.allCases
            state.errors.issueOrder = orders[(orders.firstIndex(of: state.errors.issueOrder)! + 1) % orders.count]
            state.errors.view = .issues
            state.screen.statusMessage = "issues by \(state.errors.issueOrder.rawValue)"
        }
        return true
    }

    /// `e` selects the next (newer) error line, `E` the previous (older) one; with nothing selected both select
    /// the newest. The view scrolls so the selection is visible.
    static func selectError(newer: Bool, state: inout DashboardState) -> Bool {
        let filtered = state.matchingLogs
        let errors = filtered.indices.filter { filtered[$0].kind == .error }
        guard let newest = errors.last else {
            state.screen.statusMessage = "no errors in Logs"
            return true
        }
        var target = newest
        if let selected = state.logs.selectedSequence,
            let position = filtered.firstIndex(where: { $0.sequence == selected })
        {
            if newer {
                target = errors.first { $0 > position } ?? position
            } else {
                target = errors.last { $0 < position } ?? position
            }
        }
        state.logs.selectedSequence = filtered[target].sequence
        state.screen.focus = .logs
        let rows = max(1, DashboardLayout(for: state).logRows)
        let bottom = filtered.count - state.logs.scroll
        if target >= bottom || target < bottom - rows {
            state.logs.scroll = min(max(0, filtered.count - target - rows / 2 - 1), max(0, filtered.count - rows))
        }
        return true
    }
}
