/// Keys, in one place: the keymap decides what a key means (while the `/` prompt or a detail view is open, they
/// decide first), and this file translates it into the actions of the slices it concerns. Keys reach across slices
/// (a query changes what Logs and Errors list), which is why the root handles them; it writes no slice's field
/// itself, and the page sizes come from ``ScreenState/viewport``.
extension DashboardReducer {
    /// Returns whether the state changed. When the key changed what the filters let through, the Logs slice's
    /// filtered lines are rebuilt once.
    static func handleKey(_ key: Key, state: inout DashboardState, effects: inout [DashboardEffect]) -> Bool {
        let filter = state.filter
        defer { if !state.filter.selectsSameLines(as: filter) { _ = state.logs.reduce(.filterChanged(state.filter)) } }
        if state.filter.isEditing, let handled = editFilter(key, state: &state) { return handled }
        if state.screen.showsHelp, let move = helpScrollMove(key) {
            // The overlay scrolls when its lines do not fit, with the detail view's keys.
            return state.screen.reduce(.helpScrolled(move, page: max(1, state.screen.height - 5)))
        }
        if state.detail.target != nil, state.screen.showsHelp {
            // Help over a detail view: only closing it, so `q` never quits from under two layers.
            guard key == .character("?") || key == .escape || key == .character("q") else { return false }
            return state.screen.reduce(.helpClosed)
        }
        if let target = state.detail.target, let handled = detailKey(key, in: target, state: &state) {
            return handled
        }
        guard let binding = state.keymap.binding(for: key) else { return false }
        switch binding.command {
        case .app(let command):
            effects.append(.appCommand(command))
            return state.screen.reduce(.said("▶ " + binding.summary, restamped: true))
        case .dashboard(let command):
            return perform(command, key: key, state: &state, effects: &effects)
        }
    }

    /// In a trace's waterfall, `j`/`k` (and the arrows) select a span and `Enter` opens it; `nil` for other keys.
    static func traceKey(_ key: Key, traceID: String, state: inout DashboardState) -> Bool? {
        switch key {
        case .character("j"), .down, .character("k"), .up:
            let step = key == .character("j") || key == .down ? 1 : -1
            return state.detail.reduce(.spanMoved(by: step, count: state.traceRows(of: traceID).count))
        case .enter:
            let rows = state.traceRows(of: traceID)
            guard !rows.isEmpty else { return false }
            let span = rows[min(state.detail.span, rows.count - 1)].span
            return push(.span(traceID: traceID, spanID: span.spanID), state: &state)
        default:
            return nil
        }
    }

    /// The scroll keys of a detail view, which scroll the help overlay while it is shown.
    static func helpScrollMove(_ key: Key) -> ScrollMove? {
        switch key {
        case .character("j"), .down: .down
        case .character("k"), .up: .up
        case .pageDown, .character(" "): .pageDown
        case .pageUp: .pageUp
        case .character("g"), .home: .top
        case .character("G"), .end: .bottom
        default: nil
        }
    }

    /// Typing a query after `/`: `Enter` applies it if it parses (else the prompt says what is wrong and where,
    /// and the previous query stays), `Esc` leaves it as it was. Returns `nil` for keys that keep their meaning.
    static func editFilter(_ key: Key, state: inout DashboardState) -> Bool? {
        switch key {
        case .character(let character):
            return state.filter.reduce(.typed(character))
        case .backspace, .delete:
            return state.filter.reduce(.erased)
        case .enter:
            let parsed = Query.parse(state.filter.draft)
            if case .success = parsed {
                _ = state.logs.reduce(.scrollReset)
                _ = state.errors.reduce(.queryApplied)
                _ = state.traces.reduce(.selectionReset)
            }
            return state.filter.reduce(.submitted(parsed))
        case .escape:
            return state.filter.reduce(.editingCancelled)
        default:
            return nil
        }
    }

    /// Keys while a detail view of `target` is open. `nil` for keys that keep their usual meaning (help, theme,
    /// redraw, and triage on an issue).
    static func detailKey(_ key: Key, in target: DetailTarget, state: inout DashboardState) -> Bool? {
        let page = max(1, state.screen.viewport.detailRows)
        if case .trace(let traceID) = target, let handled = traceKey(key, traceID: traceID, state: &state) {
            return handled
        }
        if case .metric = target, key == .character("w") { return state.detail.reduce(.chartWindowCycled) }
        switch key {
        case .escape, .character("q"), .backspace:
            return state.detail.reduce(.closed)
        case .character("j"), .down: return state.detail.reduce(.scrolled(.down, page: page))
        case .character("k"), .up: return state.detail.reduce(.scrolled(.up, page: page))
        case .pageDown, .character(" "): return state.detail.reduce(.scrolled(.pageDown, page: page))
        case .pageUp: return state.detail.reduce(.scrolled(.pageUp, page: page))
        case .character("g"), .home: return state.detail.reduce(.scrolled(.top, page: page))
        case .character("G"), .end: return state.detail.reduce(.scrolled(.bottom, page: page))
        case .character("]"), .character("["):
            let count = state.occurrences(of: target).count
            return state.detail.reduce(.occurrenceMoved(by: key == .character("]") ? 1 : -1, count: count))
        case .enter:
            let occurrences = state.occurrences(of: target)
            if occurrences.isEmpty, case .event(let sequence) = target, let event = state.event(sequence),
                let traceID = event.traceID, let hex = event.spanID, let spanID = UInt64(hex, radix: 16),
                state.span(spanID, of: traceID) != nil
            {
                // An error's span opens as from the Traces view.
                return push(.span(traceID: traceID, spanID: spanID), state: &state)
            }
            guard state.detail.occurrence < occurrences.count else { return false }
            return push(.event(occurrences[state.detail.occurrence].sequence), state: &state)
        case .character("f"), .character(","), .character("."):
            // In an event's detail with a reported stack trace: `f` folds or unfolds library frames, `,` and `.`
            // select the previous or next frame.
            let count = state.listedFrames.count
            guard count > 0 else { return false }
            if key == .character("f") { return state.detail.reduce(.libraryFramesToggled) }
            return state.detail.reduce(.frameMoved(by: key == .character(",") ? -1 : 1, count: count))
        case .character("?"), .character("t"), .ctrl:
            return nil
        default:
            // Triage keys act on the issue shown.
            if case .dashboard(.triage)? = state.keymap.command(for: key), case .issue = target { return nil }
            return false
        }
    }

    static func perform(
        _ command: DashboardCommand, key: Key, state: inout DashboardState, effects: inout [DashboardEffect]
    ) -> Bool {
        switch command {
        case .quit:
            state.quitRequested = true
            effects.append(.quit)
        case .toggleHelp:
            _ = state.screen.reduce(.helpToggled)
        case .focusNext, .focusPrevious:
            _ = state.screen.reduce(.focusCycled(forward: command == .focusNext))
        case .scrollUp: scroll(.up, state: &state)
        case .scrollDown: scroll(.down, state: &state)
        case .pageUp: scroll(.pageUp, state: &state)
        case .pageDown: scroll(.pageDown, state: &state)
        case .scrollTop: scroll(.top, state: &state)
        case .scrollBottom: scroll(.bottom, state: &state)
        case .beginTextFilter:
            _ = state.filter.reduce(.editingBegan)
            _ = state.screen.reduce(.helpClosed)
        case .cancel:
            if state.screen.showsHelp {
                _ = state.screen.reduce(.helpClosed)
            } else if !state.detail.stack.isEmpty {
                _ = state.detail.reduce(.closed)
            } else if !state.filter.query.isEmpty {
                _ = state.filter.reduce(.queryCleared)
                _ = state.logs.reduce(.scrollReset)
            } else if state.logs.selectedSequence != nil {
                _ = state.logs.reduce(.selectionCleared)
            } else {
                return false
            }
        case .toggleTypeFilter:
            guard case .character(let c) = key, let digit = c.wholeNumberValue else { return false }
            let types = state.feeds.metrics.errorsByType
            guard digit >= 1, digit <= types.count else { return say("no error type \(digit) in Metrics", &state) }
            _ = state.filter.reduce(.typeToggled(types[digit - 1].name))
            _ = state.logs.reduce(.scrollReset)
            _ = state.errors.reduce(.typeFilterToggled)
        case .clearTypeFilters:
            guard !state.filter.types.isEmpty else { return false }
            _ = state.filter.reduce(.typesCleared)
            _ = state.logs.reduce(.scrollReset)
        case .togglePause:
            _ = state.logs.reduce(.pauseToggled)
        case .nextError, .previousError:
            // `e` selects the next (newer) error line, `E` the previous (older) one, and focuses Logs.
            let rows = max(1, state.screen.viewport.logRows)
            guard state.logs.reduce(.errorStepped(newer: command == .nextError, rows: rows, filter: state.filter))
            else { return say("no errors in Logs", &state) }
            _ = state.screen.reduce(.focused(.logs))
        case .cycleTheme:
            _ = state.screen.reduce(.themeCycled)
        case .redraw:
            effects.append(.redrawAll)
        case .openDetail:
            return openDetail(state: &state, effects: &effects)
        case .triage(let action):
            return triage(action, state: &state, effects: &effects)
        case .toggleErrorsView:
            _ = state.errors.reduce(.viewCycled)
            _ = state.traces.reduce(.selectionReset)
            _ = state.screen.reduce(.focused(.errors))
        case .saveMatching:
            if let progress = state.logs.refilterProgress {
                // Saving now would leave out the history not examined yet.
                return say("still filtering (\(Int(progress * 100))%): save when it is done", &state)
            }
            let matching = state.matchingLogs
            guard !matching.isEmpty else { return say("nothing to save: no kept event matches", &state) }
            effects.append(.export(Array(matching)))
            return say("saving \(Format.count(matching.count)) events…", &state)
        case .cycleIssueOrder where state.errors.view == .traces:
            _ = state.traces.reduce(.orderCycled)
            return say("traces by \(state.traces.sortOrder.rawValue)", &state)
        case .cycleIssueOrder:
            _ = state.errors.reduce(.issueOrderCycled)
            return say("issues by \(state.errors.issueOrder.rawValue)", &state)
        }
        return true
    }

    /// A scroll key acts on the focused pane: in Errors it moves the selection (of the Alerts, Issues, Patterns,
    /// Traces or Services view), in Metrics the selected series (when there are any), anywhere else it scrolls Logs.
    static func scroll(_ move: ScrollMove, state: inout DashboardState) {
        let viewport = state.screen.viewport
        if state.screen.focus == .metrics, !state.feeds.metrics.series.isEmpty {
            _ = state.feeds.reduce(.seriesSelectionMoved(move, page: max(1, viewport.metricsRows)))
        } else if state.screen.focus != .errors {
            _ = state.logs.reduce(.scrolled(move, rows: max(1, viewport.logRows), filter: state.filter))
        } else if state.errors.view == .patterns {
            _ = state.patterns.reduce(.selectionMoved(move, page: max(1, viewport.errorRows), filter: state.filter))
        } else if state.errors.view == .traces {
            _ = state.traces.reduce(.selectionMoved(move, page: max(1, viewport.errorRows), filter: state.filter))
        } else if state.errors.view == .services {
            let edges = state.feeds.visibleEdges(state.filter)
            _ = state.feeds.reduce(.edgeSelectionMoved(move, page: max(1, viewport.errorRows), edges: edges))
        } else {
            _ = state.errors.reduce(
                .selectionMoved(move, page: max(1, viewport.errorRows), filter: state.filter, now: state.screen.now))
        }
    }

    /// Shows `message` on the status line; a key that answers with a message changed the state.
    static func say(_ message: String, _ state: inout DashboardState) -> Bool {
        _ = state.screen.reduce(.said(message))
        return true
    }
}
