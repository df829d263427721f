/// Key handling: the keymap decides what a key means; this file decides what that does to the state.
extension DashboardReducer {
    /// Returns whether the state changed.
    static func handleKey(_ key: Key, state: inout DashboardState, effects: inout [DashboardEffect]) -> Bool {
        if state.isEditingFilter, let handled = editFilter(key, state: &state) { return handled }
        if state.detail != nil, state.showsHelp {
            // Help over a detail view: only closing it, so `q` never quits from under two layers.
            guard key == .character("?") || key == .escape || key == .character("q") else { return false }
            state.showsHelp = false
            return true
        }
        if state.detail != nil, let handled = handleDetailKey(key, state: &state) { return handled }
        guard let binding = state.keymap.binding(for: key) else { return false }
        switch binding.command {
        case .app(let command):
            effects.append(.appCommand(command))
            state.statusMessage = "▶ " + binding.summary
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
            guard state.queryDraft.count < 200 else { return false }
            state.queryDraft += Sanitizer.sanitize(String(c))
            state.queryError = nil
        case .backspace, .delete:
            guard !state.queryDraft.isEmpty else { return false }
            state.queryDraft.removeLast()
            state.queryError = nil
        case .enter:
            switch Query.parse(state.queryDraft) {
            case .success(let query):
                state.query = query
                state.isEditingFilter = false
                state.queryError = nil
                state.logScroll = 0
                state.errorScroll = 0
                state.selectedFingerprint = nil
            case .failure(let error):
                state.queryError = error
            }
        case .escape:
            state.isEditingFilter = false
            state.queryError = nil
            state.queryDraft = state.query.text
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
        let scrollsLogs = state.focus != .errors
        switch command {
        case .quit:
            state.quitRequested = true
            effects.append(.quit)
        case .toggleHelp:
            state.showsHelp.toggle()
        case .focusNext:
            state.focus = panes[((panes.firstIndex(of: state.focus) ?? -1) + 1) % panes.count]
        case .focusPrevious:
            state.focus = panes[((panes.firstIndex(of: state.focus) ?? 0) + panes.count - 1) % panes.count]
        case .scrollUp, .scrollDown, .pageUp, .pageDown, .scrollTop, .scrollBottom:
            if scrollsLogs { scrollLogs(command, state: &state) } else { moveErrorSelection(command, state: &state) }
        case .beginTextFilter:
            state.isEditingFilter = true
            state.queryDraft = state.query.text
            state.queryError = nil
            state.showsHelp = false
        case .cancel:
            if state.showsHelp {
                state.showsHelp = false
            } else if !state.detailStack.isEmpty {
                closeDetail(state: &state)
            } else if !state.query.isEmpty {
                state.query = .empty
                state.logScroll = 0
            } else if state.selectedSequence != nil {
                state.selectedSequence = nil
            } else {
                return false
            }
        case .toggleTypeFilter:
            guard case .character(let c) = key, let digit = c.wholeNumberValue else { return false }
            let types = state.metrics.errorsByType
            guard digit >= 1, digit <= types.count else {
                state.statusMessage = "no error type \(digit) in Metrics"
                return true
            }
            let name = types[digit - 1].name
            if state.typeFilter.contains(name) { state.typeFilter.remove(name) } else { state.typeFilter.insert(name) }
            state.logScroll = 0
            state.errorScroll = 0
        case .clearTypeFilters:
            guard !state.typeFilter.isEmpty else { return false }
            state.typeFilter = []
            state.logScroll = 0
        case .togglePause:
            if state.isPaused {
                state.isPaused = false
                state.arrivedWhilePaused = 0
                state.logScroll = 0
            } else {
                state.isPaused = true
            }
        case .nextError, .previousError:
            return selectError(newer: command == .nextError, state: &state)
        case .cycleTheme:
            guard state.themes.count > 1 else {
                state.statusMessage = "only one theme loaded"
                return true
            }
            state.themeIndex = (state.themeIndex + 1) % state.themes.count
            state.statusMessage = "theme \(state.theme.name)"
        case .redraw:
            effects.append(.redrawAll)
        case .openDetail:
            return openDetail(state: &state)
        case .toggleErrorsView:
            state.errorsView = state.errorsView == .alerts ? .issues : .alerts
            state.selectedFingerprint = nil
            state.errorScroll = 0
            state.focus = .errors
        case .saveMatching:
            let matching = state.matchingLogs
            guard !matching.isEmpty else {
                state.statusMessage = "nothing to save: no kept event matches"
                return true
            }
            effects.append(.export(Array(matching)))
            state.statusMessage = "saving \(Format.count(matching.count)) events…"
        case .cycleIssueOrder:
            let orders = IssueOrder.allCases
            state.issueOrder = orders[(orders.firstIndex(of: state.issueOrder)! + 1) % orders.count]
            state.errorsView = .issues
            state.statusMessage = "issues by \(state.issueOrder.rawValue)"
        }
        return true
    }

    static func scrollLogs(_ command: DashboardCommand, state: inout DashboardState) {
        let rows = max(1, DashboardLayout(for: state).logRows)
        let total = state.matchingLogs.count
        let maximum = max(0, total - rows)
        switch command {
        case .scrollUp: state.logScroll += 1
        case .scrollDown: state.logScroll -= 1
        case .pageUp: state.logScroll += rows
        case .pageDown: state.logScroll -= rows
        case .scrollTop: state.logScroll = maximum
        default: state.logScroll = 0
        }
        state.logScroll = min(max(0, state.logScroll), maximum)
    }

    static func scrollErrors(_ command: DashboardCommand, state: inout DashboardState) {
        let rows = max(1, DashboardLayout(for: state).errorRows)
        let maximum = max(0, state.visibleAlerts.count - rows)
        switch command {
        case .scrollUp: state.errorScroll -= 1
        case .scrollDown: state.errorScroll += 1
        case .pageUp: state.errorScroll -= rows
        case .pageDown: state.errorScroll += rows
        case .scrollTop: state.errorScroll = 0
        default: state.errorScroll = maximum
        }
        state.errorScroll = min(max(0, state.errorScroll), maximum)
    }

    /// `e` selects the next (newer) error line, `E` the previous (older) one; with nothing selected both select
    /// the newest. The view scrolls so the selection is visible.
    static func selectError(newer: Bool, state: inout DashboardState) -> Bool {
        let filtered = state.matchingLogs
        let errors = filtered.indices.filter { filtered[$0].kind == .error }
        guard let newest = errors.last else {
            state.statusMessage = "no errors in Logs"
            return true
        }
        var target = newest
        if let selected = state.selectedSequence, let position = filtered.firstIndex(where: { $0.sequence == selected })
        {
            if newer {
                target = errors.first { $0 > position } ?? position
            } else {
                target = errors.last { $0 < position } ?? position
            }
        }
        state.selectedSequence = filtered[target].sequence
        state.focus = .logs
        let rows = max(1, DashboardLayout(for: state).logRows)
        let bottom = filtered.count - state.logScroll
        if target >= bottom || target < bottom - rows {
            state.logScroll = min(max(0, filtered.count - target - rows / 2 - 1), max(0, filtered.count - rows))
        }
        return true
    }
}
