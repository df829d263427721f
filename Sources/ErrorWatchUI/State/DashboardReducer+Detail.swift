/// Opening a detail view: what `Enter` opens in the focused pane.
extension DashboardReducer {
    /// `Enter`: opens the focused pane's selection (an alert, issue, template or trace in Errors, the chart of the
    /// selected series in Metrics, the selected or newest line in Logs) in a detail view; an edge of the Services
    /// view opens the Traces view of its two services. Opening an issue ends its "new" mark.
    static func openDetail(state: inout DashboardState, effects: inout [DashboardEffect]) -> Bool {
        let target: DetailTarget
        if state.screen.focus == .metrics, let index = state.feeds.selectedSeriesIndex {
            // The runtime sends the series' chart with every sample from now on.
            let id = state.feeds.metrics.series[index].id
            effects.append(.metricOpened(id))
            target = .metric(id)
        } else if state.screen.focus == .errors, state.errors.view == .services {
            return openEdgeTraces(state: &state)
        } else if state.screen.focus == .errors, state.errors.view == .traces {
            guard let trace = state.traces.selected(state.filter) else { return say("no trace to open", &state) }
            // The store sends the trace's spans (and their changes from now on) to draw its waterfall.
            effects.append(.traceOpened(trace.traceID))
            target = .trace(trace.traceID)
        } else if state.screen.focus == .errors, state.errors.view == .patterns {
            guard let pattern = state.patterns.selected(state.filter) else { return say("no pattern to open", &state) }
            target = .pattern(pattern.id)
        } else if state.screen.focus == .errors {
            let rows = state.errors.rowFingerprints(state.filter, at: state.screen.now)
            guard !rows.isEmpty else {
                return say(state.errors.view == .alerts ? "no alert to open" : "no issue to open", &state)
            }
            let fingerprint = rows[state.errors.selectedIndex(rows: rows)]
            target = state.errors.view == .alerts ? .alert(fingerprint) : .issue(fingerprint)
        } else {
            let visible = state.logs.visibleRows(state.filter, count: max(1, state.screen.viewport.logRows))
            guard
                let event = state.logs.selectedSequence.flatMap({ selected in
                    visible.first { $0.sequence == selected }
                }) ?? visible.last
            else { return say("no line to open", &state) }
            target = .event(event.sequence)
        }
        _ = push(target, state: &state)
        if case .issue(let fingerprint) = target, state.errors.reduce(.issueOpened(fingerprint)) {
            effects.append(.triage(fingerprint: fingerprint, .markOpened))
        }
        return true
    }

    /// `Enter` in the Services view: the Traces view, narrowed by the query to the traces of both the selected
    /// edge's services (`service:"shop" service:"payments"`).
    static func openEdgeTraces(state: inout DashboardState) -> Bool {
        let edges = state.feeds.visibleEdges(state.filter)
        guard let index = state.feeds.selectedEdgeIndex(in: edges) else {
            return say("no service call to open", &state)
        }
        let edge = edges[index]
        guard !edge.caller.contains("\""), !edge.callee.contains("\"") else {
            return say("a service name with a quote cannot be queried", &state)
        }
        let parsed = Query.parse("service:\"\(edge.caller)\" service:\"\(edge.callee)\"")
        guard case .success = parsed else { return say("these service names cannot be queried", &state) }
        _ = state.logs.reduce(.scrollReset)
        _ = state.errors.reduce(.queryApplied)
        _ = state.filter.reduce(.submitted(parsed))
        while state.errors.view != .traces { _ = state.errors.reduce(.viewCycled) }
        _ = state.traces.reduce(.selectionReset)
        return true
    }

    /// Opens `target` in a detail view, closing the help overlay.
    static func push(_ target: DetailTarget, state: inout DashboardState) -> Bool {
        _ = state.screen.reduce(.helpClosed)
        return state.detail.reduce(.opened(target))
    }
}
