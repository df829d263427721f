import Foundation

/// The one root reducer: a pure function from (state, action) to effects. It scopes: each ``DashboardAction`` (and
/// each key, through the keymap, in `DashboardReducer+Keys.swift`) becomes the actions of the slices it concerns —
/// ``ScreenState/Action``, ``LogsState/Action`` and the others — and each slice's own `reduce` is the only code that
/// writes its fields (The Composable Architecture's `Scope`). The root itself writes only `generation` and
/// `quitRequested`. Nothing here draws or lays out text: page sizes come from ``ScreenState/viewport``, and a detail
/// view's scroll is kept within its content when drawn.
///
/// ```swift
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("q")))
/// // effects == [.quit], state.quitRequested == true
/// ```
///
/// Behaviour worth knowing:
/// - Scroll keys act on the focused pane: in Errors they move the selection (Alerts, Issues or Patterns); any other
///   focus scrolls Logs.
/// - Logs follow the tail while `logs.scroll == 0` and not paused. Scrolled up or paused, arriving lines that
///   pass the filters raise `logs.scroll`, so the view stays put. Resuming (or `G`) returns to the tail.
/// - Alerts are upserted by fingerprint, most recent first; background-origin alerts are ignored; an alert fades
///   after ``DashboardState/alertFadeAfter`` seconds without a repeat and is dropped after
///   ``DashboardState/alertExpiresAfter`` (on `.tick`).
/// - `generation` increases on every visible change; a tick changes it only when the displayed second changes.
/// - A filter change re-examines the Logs history a bounded slice at a time, newest first: the first slice at
///   once, the next on each `.frameStarted` while ``DashboardState/hasWorkInProgress``; lines arriving meanwhile
///   are filtered as they arrive.
/// - A status message stays ``DashboardState/statusMessageDuration`` seconds, then the next tick clears it.
public enum DashboardReducer {
    /// Longest message kept per event, in scalars; the rest is cut with `…` when the event arrives. Long enough
    /// that the detail view shows any real message whole (a wire line is at most 64 KiB).
    public static let messageLimit = 8_192

    /// Applies `action` to `state` and returns what the runtime must do.
    public static func reduce(into state: inout DashboardState, action: DashboardAction) -> [DashboardEffect] {
        var effects: [DashboardEffect] = []
        let message = (state.screen.statusMessage, state.screen.statusMessageSetAt)
        var changed = scope(action, into: &state, effects: &effects)
        // The Traces view keeps which rows pass the query in force: handed over whenever it changed.
        if state.traces.matchedQuery != state.filter.query {
            _ = state.traces.reduce(.queryChanged(state.filter.query))
        }
        // A message shown (or shown again) is a visible change, whoever showed it.
        if (state.screen.statusMessage, state.screen.statusMessageSetAt) != message { changed = true }
        if changed { state.generation &+= 1 }
        return effects
    }

    /// Hands `action` to the slices it concerns, as their own actions; returns whether anything visible changed.
    static func scope(
        _ action: DashboardAction, into state: inout DashboardState, effects: inout [DashboardEffect]
    ) -> Bool {
        switch action {
        case .keyPressed(let key):
            return handleKey(key, state: &state, effects: &effects)
        case .eventReceived(let event):
            return receive([event], into: &state)
        case .eventsReceived(let events):
            return receive(timeOrdered(events), into: &state)
        case .handlingReported(let sequence, let summary):
            _ = state.logs.reduce(.handlingReported(sequence: sequence, summary))
            // Drawn only in a detail view.
            return state.detail.target != nil
        case .alertReceived(let alert):
            return state.errors.reduce(.alertReceived(alert))
        case .issuesSampled(let changed, let evicted):
            return state.errors.reduce(.issuesSampled(changed: changed, evicted: evicted))
        case .metricsSampled(let metrics):
            return state.feeds.reduce(.metricsSampled(metrics, holdingOrder: state.screen.focus == .metrics))
        case .statusChanged(let status):
            // The first status gives the Status pane a place on screen.
            let first = state.feeds.statuses.isEmpty
            defer { if first { layOut(&state) } }
            return state.feeds.reduce(.statusChanged(status))
        case .sourcesChanged(let sources):
            let changed = state.feeds.reduce(.sourcesChanged(sources))
            if sources.isEmpty { _ = state.screen.reduce(.sourcesGone) }
            layOut(&state)
            return changed
        case .sourcesForgotten(let count):
            return state.feeds.reduce(.sourcesForgotten(count))
        case .storeStatusChanged(let note):
            return state.feeds.reduce(.storeStatusChanged(note))
        case .receiversListening(let receivers):
            return state.feeds.reduce(.receiversListening(receivers))
        case .traceChanged(let snapshot):
            // Drawn only in a detail view: with none open, a new snapshot changes nothing on screen.
            return state.traces.reduce(.traceChanged(snapshot)) && state.detail.target != nil
        case .traceSummarized(let summary):
            // Drawn only in the Traces view.
            return state.traces.reduce(.summarized(summary)) && state.errors.view == .traces
                && state.detail.target == nil
        case .appAttached(let app):
            attach(app, to: &state)
            return true
        case .frameStarted:
            return state.logs.reduce(.frameStarted(state.filter))
        case .tick(let date):
            let clock = state.screen.reduce(.ticked(date))
            return state.errors.reduce(.ticked(date)) || clock
        case .resized(let width, let height):
            defer { layOut(&state) }
            return state.screen.reduce(.resized(width: width, height: height))
        case .themeLoaded(let theme):
            return state.screen.reduce(.themeLoaded(theme))
        case .themeSelected(let index):
            return state.screen.reduce(.themeSelected(index))
        case .colorDepthDetected(let depth):
            return state.screen.reduce(.colorDepthDetected(depth))
        case .themeFailed(let reason):
            return state.screen.reduce(.themeFailed(reason))
        case .statusMessage(let message):
            return state.screen.reduce(.messageReported(message))
        }
    }

    /// One timeline: a batch is handed to Logs and Patterns in the order of its lines' own times, so both number
    /// its log lines alike.
    static func receive(_ events: [DashboardEvent], into state: inout DashboardState) -> Bool {
        let firstLineNumber = state.logs.nextLineNumber
        let logs = state.logs.reduce(.received(events, filter: state.filter))
        let patterns = state.patterns.reduce(
            .received(events, firstLineNumber: firstLineNumber, keptFrom: state.logs.capacity, now: state.screen.now))
        return logs || patterns
    }

    /// Gives the screen slice the page sizes and the panes of the layout for the current size and feeds, when they
    /// changed: the one place the reducer asks the layout anything, on a resize or a change of the panes shown, so
    /// that no key lays the screen out.
    static func layOut(_ state: inout DashboardState) {
        let viewport = Viewport(width: state.screen.width, height: state.screen.height, feeds: state.feeds)
        if viewport != state.screen.viewport { _ = state.screen.reduce(.laidOut(viewport)) }
    }

    /// `events` in the order of their own times (a stable sort: events of one time keep their order); a batch
    /// already in order, the common case, is handed back as it is.
    static func timeOrdered(_ events: [DashboardEvent]) -> [DashboardEvent] {
        guard events.count > 1 else { return events }
        var ordered = true
        for index in 1..<events.count where events[index].timestamp < events[index - 1].timestamp {
            ordered = false
            break
        }
        if ordered { return events }
        let sorted = events.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }
        return sorted.map(\.element)
    }

    /// Adds (or replaces, by name) an attached app. Keys the dashboard or an earlier app already use stay theirs:
    /// they are taken out of the new app's bindings, and the status line says so.
    static func attach(_ incoming: AttachedApp, to state: inout DashboardState) {
        let others = state.feeds.apps.filter { $0.name != incoming.name }.flatMap(\.bindings)
        let taken = Set((Keymap.standard.bindings + others).flatMap(\.keys))
        var app = incoming
        app.name = Sanitizer.sanitize(app.name, limit: 40)
        app.title = Sanitizer.sanitize(app.title, limit: 60)
        var shadowed: [String] = []
        app.bindings = app.bindings.compactMap { binding in
            guard case .app = binding.command else { return nil }
            var binding = binding
            binding.summary = Sanitizer.sanitize(binding.summary, limit: 40)
            binding.hint = binding.hint.map { Sanitizer.sanitize($0, limit: 12) }
            let free = binding.keys.filter { !taken.contains($0) }
            if free.count < binding.keys.count { shadowed += binding.keys.filter(taken.contains).map(\.label) }
            guard !free.isEmpty else { return nil }
            if free.count < binding.keys.count {
                binding.keys = free
                binding.keyLabel = free.map(\.label).joined(separator: " ")
            }
            return binding
        }
        _ = state.feeds.reduce(.appAttached(app, replacing: incoming.name))
        if !shadowed.isEmpty {
            _ = state.screen.reduce(.said("\(app.name): keys \(shadowed.joined(separator: " ")) are taken; not bound"))
        }
    }
}
