import Foundation

/// The one root reducer, the only code that changes ``DashboardState``: a pure function from (state, action) to
/// effects. It hands each action to the slice it concerns — ``LogsState``, ``ErrorsState``, ``FeedsState``,
/// ``ScreenState`` each have their own `reduce` — and handles keys, which reach across slices, itself.
///
/// ```swift
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("q")))
/// // effects == [.quit], state.quitRequested == true
/// ```
///
/// Behaviour worth knowing:
/// - Scroll keys act on the focused pane: in Errors they move the selection (Alerts or Issues); any other focus
///   scrolls Logs.
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
        var changed: Bool
        var effects: [DashboardEffect] = []
        let previousStatus = state.screen.statusMessage
        switch action {
        case .keyPressed(let key):
            changed = handleKey(key, state: &state, effects: &effects)
        case .eventReceived, .eventsReceived:
            // One timeline: a batch is handed to Logs and Patterns in the order of its lines' own times, so both
            // number its log lines alike.
            let ordered = timeOrdered(action)
            let firstLineNumber = state.logs.nextLineNumber
            changed = state.logs.reduce(ordered, filter: state.filter)
            changed =
                state.patterns.reduce(
                    ordered, firstLineNumber: firstLineNumber, keptFrom: state.logs.capacity, now: state.screen.now)
                || changed
        case .handlingReported:
            _ = state.logs.reduce(action, filter: state.filter)
            changed = state.detail.target != nil
        case .alertReceived, .issuesSampled:
            changed = state.errors.reduce(action)
        case .metricsSampled, .statusChanged, .sourcesForgotten, .storeStatusChanged:
            changed = state.feeds.reduce(action)
        case .sourcesChanged:
            changed = state.feeds.reduce(action)
            if state.feeds.sources.isEmpty, state.screen.focus == .sources { state.screen.focus = .errors }
        case .traceChanged:
            // Drawn only in a detail view: with none open, a new snapshot changes nothing on screen.
            changed = state.traces.reduce(action) && state.detail.target != nil
        case .appAttached(let app):
            attach(app, to: &state)
            changed = true
        case .frameStarted:
            changed = state.logs.continueRefilter(state.filter) > 0
        case .tick(let date):
            changed = state.screen.tick(to: date)
            changed = state.errors.expireAlerts(at: date) || changed
        case .resized, .themeLoaded, .themeSelected, .colorDepthDetected, .themeFailed, .statusMessage:
            changed = state.screen.reduce(action)
        }
        if let message = state.screen.statusMessage,
            message != previousStatus || effects.contains(where: isAppCommand)
        {
            state.screen.statusMessageSetAt = state.screen.now
            changed = true
        }
        // Only keys move the detail view's scroll; clamping on them (not on every arriving batch) keeps a flood
        // from recomputing the view's lines, and drawing clamps anyway.
        if state.detail.target != nil, case .keyPressed = action { changed = clampDetailScroll(&state) || changed }
        if changed { state.generation &+= 1 }
        return effects
    }

    /// Keeps the detail view's scroll within its content (the content depends on the width), so `k` after `G`
    /// moves at once. Returns whether it moved.
    static func clampDetailScroll(_ state: inout DashboardState) -> Bool {
        guard let target = state.detail.target else { return false }
        let body = DashboardLayout(for: state).body
        let rows = max(1, body.height - 2)
        let total = DetailView.lines(of: target, in: state, width: body.width - 4).count
        let clamped = DetailView.clampedScroll(state.detail.scroll, lines: total, rows: rows)
        defer { state.detail.scroll = clamped }
        return clamped != state.detail.scroll
    }

    /// `action` with its batch in the order of the events' own times (a stable sort: events of one time keep their
    /// order); a batch already in order, the common case, is handed back as it is.
    static func timeOrdered(_ action: DashboardAction) -> DashboardAction {
        guard case .eventsReceived(let events) = action, events.count > 1 else { return action }
        var ordered = true
        for index in 1..<events.count where events[index].timestamp < events[index - 1].timestamp {
            ordered = false
            break
        }
        if ordered { return action }
        let sorted = events.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }
        return .eventsReceived(sorted.map(\.element))
    }

    static func isAppCommand(_ effect: DashboardEffect) -> Bool {
        if case .appCommand = effect { true } else { false }
    }

    /// Adds (or replaces, by name) an attached app. Keys the dashboard or an earlier app already use stay theirs:
    /// they are taken out of the new app's bindings, and the status line says so.
    static func attach(_ incoming: AttachedApp, to state: inout DashboardState) {
        state.feeds.apps.removeAll { $0.name == incoming.name }
        let taken = Set(state.keymap.bindings.flatMap(\.keys))
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
        state.feeds.apps.append(app)
        if !shadowed.isEmpty {
            state.screen.statusMessage = "\(app.name): keys \(shadowed.joined(separator: " ")) are taken; not bound"
        }
    }
}
