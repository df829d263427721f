import Foundation

/// The only code that changes ``DashboardState``: a pure function from (state, action) to effects.
///
/// ```swift
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("q")))
/// // effects == [.quit], state.quitRequested == true
/// ```
///
/// Behaviour worth knowing:
/// - Scroll keys act on the focused pane: Errors scrolls alerts; any other focus scrolls Logs.
/// - Logs follow the tail while `logScroll == 0` and not paused. Scrolled up or paused, arriving lines that pass
///   the filters raise `logScroll`, so the view stays put. Resuming (or `G`) returns to the tail.
/// - Alerts are upserted by fingerprint, most recent first; background-origin alerts are ignored; an alert fades
///   after ``DashboardState/alertFadeAfter`` seconds without a repeat and is dropped after
///   ``DashboardState/alertExpiresAfter`` (on `.tick`).
/// - `generation` increases on every visible change; a tick changes it only when the displayed second changes.
/// - A status message stays ``DashboardState/statusMessageDuration`` seconds, then the next tick clears it.
public enum DashboardReducer {
    /// Longest message kept per event, in scalars; the rest is cut with `…` when the event arrives.
    public static let messageLimit = 400

    /// Applies `action` to `state` and returns what the runtime must do.
    public static func reduce(into state: inout DashboardState, action: DashboardAction) -> [DashboardEffect] {
        var changed = true
        var effects: [DashboardEffect] = []
        let previousStatus = state.statusMessage
        switch action {
        case .keyPressed(let key):
            changed = handleKey(key, state: &state, effects: &effects)
        case .eventReceived(let event):
            append(event, to: &state)
        case .eventsReceived(let events):
            changed = !events.isEmpty
            // Events further back than the ring holds would be pushed out by later ones of this same batch: they
            // are counted (pause, scroll position) but not sanitised and stored.
            let skipped = max(0, events.count - state.logCapacity)
            for event in events.prefix(skipped) { account(event, in: &state) }
            for event in events.dropFirst(skipped) { append(event, to: &state) }
        case .alertReceived(let alert):
            changed = upsert(alert, into: &state)
        case .metricsSampled(let metrics):
            changed = metrics != state.metrics
            state.metrics = metrics
        case .flowChanged(var flow):
            flow.state = Sanitizer.sanitize(flow.state, limit: 80)
            flow.lastOutcome = Sanitizer.sanitize(flow.lastOutcome, limit: 120)
            flow.name = Sanitizer.sanitize(flow.name, limit: 40)
            if let index = state.flows.firstIndex(where: { $0.name == flow.name }) {
                changed = state.flows[index] != flow
                state.flows[index] = flow
            } else {
                state.flows.append(flow)
            }
        case .tick(let date):
            let before = Int(state.now.timeIntervalSince(state.startedAt).rounded(.down))
            state.now = date
            let after = Int(state.now.timeIntervalSince(state.startedAt).rounded(.down))
            let count = state.alerts.count
            state.alerts.removeAll { date.timeIntervalSince($0.lastSeen) > DashboardState.alertExpiresAfter }
            changed = before != after || count != state.alerts.count
            if let setAt = state.statusMessageSetAt,
                date.timeIntervalSince(setAt) >= DashboardState.statusMessageDuration
            {
                changed = changed || state.statusMessage != nil
                state.statusMessage = nil
                state.statusMessageSetAt = nil
            }
        case .resized(let width, let height):
            changed = state.width != max(0, width) || state.height != max(0, height)
            state.width = max(0, width)
            state.height = max(0, height)
        case .themeLoaded(let theme):
            if let index = state.themes.firstIndex(where: { $0.name == theme.name }) {
                state.themes[index] = theme
                state.themeIndex = index
            } else {
                state.themes.append(theme)
                state.themeIndex = state.themes.count - 1
            }
            state.statusMessage = "theme \(Sanitizer.sanitize(theme.name, limit: 40))"
        case .themeFailed(let reason):
            state.statusMessage = "theme not loaded: " + Sanitizer.sanitize(reason, limit: 200)
        case .statusMessage(let message):
            state.statusMessage = Sanitizer.sanitize(message, limit: 200)
        case .sourcesChanged(let sources):
            changed = sources != state.sources
            state.sources = sources
            if state.sources.isEmpty, state.focus == .sources { state.focus = .errors }
        }
        if let message = state.statusMessage, message != previousStatus || effects.contains(where: isTrigger) {
            state.statusMessageSetAt = state.now
            changed = true
        }
        if changed { state.generation &+= 1 }
        return effects
    }

    static func isTrigger(_ effect: DashboardEffect) -> Bool {
        if case .trigger = effect { true } else { false }
    }

    /// Adds an event to the Logs ring buffer, keeping a scrolled or paused view where it is.
    static func append(_ incoming: DashboardEvent, to state: inout DashboardState) {
        var event = incoming
        event.message = Sanitizer.sanitize(event.message, limit: messageLimit)
        event.source = Sanitizer.sanitize(event.source, limit: 60)
        event.typeName = Sanitizer.sanitize(event.typeName, limit: 60)
        if let user = event.userMessage { event.userMessage = Sanitizer.sanitize(user, limit: messageLimit) }
        if state.logs.count >= state.logCapacity {
            let dropped = state.logs.removeFirst()
            if dropped.sequence == state.selectedSequence { state.selectedSequence = nil }
        }
        state.logs.append(event)
        account(event, in: &state)
    }

    /// What an arriving event changes besides the ring: the paused count and a scrolled view's position.
    static func account(_ event: DashboardEvent, in state: inout DashboardState) {
        if state.isPaused { state.arrivedWhilePaused += 1 }
        if (state.isPaused || state.logScroll > 0) && state.matches(event) {
            state.logScroll = min(state.logScroll + 1, state.logs.count)
        }
    }

    /// Inserts or replaces an alert by fingerprint; returns whether anything changed.
    static func upsert(_ incoming: AlertRecord, into state: inout DashboardState) -> Bool {
        guard incoming.origin != .background else { return false }
        var alert = incoming
        alert.title = Sanitizer.sanitize(alert.title, limit: 200)
        alert.source = Sanitizer.sanitize(alert.source, limit: 60)
        alert.typeName = Sanitizer.sanitize(alert.typeName, limit: 60)
        if let index = state.alerts.firstIndex(where: { $0.fingerprint == alert.fingerprint }) {
            state.alerts.remove(at: index)
        }
        state.alerts.prepend(alert)
        if state.alerts.count > state.alertCapacity { state.alerts.removeLast() }
        return true
    }
}
