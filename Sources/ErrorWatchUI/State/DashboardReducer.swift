import Foundation

/// The only code that changes ``DashboardState``: a pure function from (state, action) to effects.
///
/// ```swift
/// let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("q")))
/// // effects == [.quit], state.quitRequested == true
/// ```
///
/// Behaviour worth knowing:
/// - Scroll keys act on the focused pane: in Errors they move the selection (Alerts or Issues); any other focus
///   scrolls Logs.
/// - Logs follow the tail while `logScroll == 0` and not paused. Scrolled up or paused, arriving lines that pass
///   the filters raise `logScroll`, so the view stays put. Resuming (or `G`) returns to the tail.
/// - Alerts are upserted by fingerprint, most recent first; background-origin alerts are ignored; an alert fades
///   after ``DashboardState/alertFadeAfter`` seconds without a repeat and is dropped after
///   ``DashboardState/alertExpiresAfter`` (on `.tick`).
/// - `generation` increases on every visible change; a tick changes it only when the displayed second changes.
/// - A status message stays ``DashboardState/statusMessageDuration`` seconds, then the next tick clears it.
public enum DashboardReducer {
    /// Longest message kept per event, in scalars; the rest is cut with `…` when the event arrives. Long enough
    /// that the detail view shows any real message whole (a wire line is at most 64 KiB).
    public static let messageLimit = 8_192

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
        case .issuesSampled(let updated, let evicted):
            changed = !updated.isEmpty || !evicted.isEmpty
            if !evicted.isEmpty {
                let gone = Set(evicted)
                state.issues.removeAll { gone.contains($0.fingerprint) }
            }
            for issue in updated.suffix(DashboardState.issueCapacity).map(sanitized) {
                if let index = state.issues.firstIndex(where: { $0.fingerprint == issue.fingerprint }) {
                    state.issues[index] = issue
                } else {
                    state.issues.append(issue)
                }
            }
            if state.issues.count > DashboardState.issueCapacity {
                state.issues.sort { $0.lastSeen > $1.lastSeen }
                state.issues.removeLast(state.issues.count - DashboardState.issueCapacity)
            }
        case .handlingReported(let sequence, var summary):
            summary.path = summary.path.prefix(32).map { Sanitizer.sanitize($0, limit: 60) }
            summary.outcome = Sanitizer.sanitize(summary.outcome, limit: 120)
            state.handling[sequence] = summary
            if state.handling.count > state.logCapacity {
                state.handling.removeFirst(state.handling.count - state.logCapacity)
            }
            changed = state.detail != nil
        case .statusChanged(var status):
            status.name = Sanitizer.sanitize(status.name, limit: 40)
            status.state = Sanitizer.sanitize(status.state, limit: 80)
            status.detail = Sanitizer.sanitize(status.detail, limit: 200)
            status.service = status.service.map { Sanitizer.sanitize($0, limit: 40) }
            if let index = state.statuses.firstIndex(where: { $0.key == status.key }) {
                changed = state.statuses[index] != status
                state.statuses[index] = status
            } else if state.statuses.count < DashboardState.statusCapacity {
                state.statuses.append(status)
            } else {
                changed = false
            }
        case .appAttached(let app):
            attach(app, to: &state)
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
        case .themeSelected(let index):
            let selected = min(max(0, index), state.themes.count - 1)
            changed = selected != state.themeIndex
            state.themeIndex = selected
        case .colorDepthDetected(let depth):
            changed = depth < state.colorDepth
            state.colorDepth = min(state.colorDepth, depth)
        case .themeFailed(let reason):
            state.statusMessage = "theme not loaded: " + Sanitizer.sanitize(reason, limit: 200)
        case .statusMessage(let message):
            state.statusMessage = Sanitizer.sanitize(message, limit: 200)
        case .sourcesForgotten(let count):
            changed = count != state.forgottenSources
            state.forgottenSources = max(0, count)
        case .sourcesChanged(let sources):
            changed = sources != state.sources
            state.sources = sources
            if state.sources.isEmpty, state.focus == .sources { state.focus = .errors }
        }
        if let message = state.statusMessage, message != previousStatus || effects.contains(where: isAppCommand) {
            state.statusMessageSetAt = state.now
            changed = true
        }
        // Only keys move the detail view's scroll; clamping on them (not on every arriving batch) keeps a flood
        // from recomputing the view's lines, and drawing clamps anyway.
        if state.detail != nil, case .keyPressed = action { changed = clampDetailScroll(&state) || changed }
        if changed { state.generation &+= 1 }
        return effects
    }

    /// Keeps the detail view's scroll within its content (the content depends on the width), so `k` after `G`
    /// moves at once. Returns whether it moved.
    static func clampDetailScroll(_ state: inout DashboardState) -> Bool {
        guard let target = state.detail else { return false }
        let body = DashboardLayout(for: state).body
        let rows = max(1, body.height - 2)
        let total = DetailView.lines(of: target, in: state, width: body.width - 4).count
        let clamped = DetailView.clampedScroll(state.detailScroll, lines: total, rows: rows)
        defer { state.detailScroll = clamped }
        return clamped != state.detailScroll
    }

    static func isAppCommand(_ effect: DashboardEffect) -> Bool {
        if case .appCommand = effect { true } else { false }
    }

    /// Adds (or replaces, by name) an attached app. Keys the dashboard or an earlier app already use stay theirs:
    /// they are taken out of the new app's bindings, and the status line says so.
    static func attach(_ incoming: AttachedApp, to state: inout DashboardState) {
        state.apps.removeAll { $0.name == incoming.name }
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
        state.apps.append(app)
        if !shadowed.isEmpty {
            state.statusMessage = "\(app.name): keys \(shadowed.joined(separator: " ")) are taken; not bound"
        }
    }

    /// An issue with its text made safe to draw.
    static func sanitized(_ incoming: IssueRecord) -> IssueRecord {
        var issue = incoming
        issue.typeName = Sanitizer.sanitize(issue.typeName, limit: 60)
        issue.qualifiedTypeName = Sanitizer.sanitize(issue.qualifiedTypeName, limit: 200)
        issue.services = issue.services.prefix(8).map { Sanitizer.sanitize($0, limit: 40) }
        issue.recent = issue.recent.prefix(IssueRecord.occurrenceLimit).map { occurrence in
            var occurrence = occurrence
            occurrence.message = Sanitizer.sanitize(occurrence.message, limit: messageLimit)
            occurrence.service = occurrence.service.map { Sanitizer.sanitize($0, limit: 40) }
            return occurrence
        }
        return issue
    }

    /// Adds an event to the Logs ring buffer, keeping a scrolled or paused view where it is.
    static func append(_ incoming: DashboardEvent, to state: inout DashboardState) {
        var event = incoming
        if event.sequence == 0 {
            event.sequence = state.nextLogLineNumber
            state.nextLogLineNumber &+= 1
        }
        event.message = Sanitizer.sanitize(event.message, limit: messageLimit)
        event.source = Sanitizer.sanitize(event.source, limit: 60)
        event.typeName = Sanitizer.sanitize(event.typeName, limit: 60)
        if let user = event.userMessage { event.userMessage = Sanitizer.sanitize(user, limit: messageLimit) }
        // The fields only the detail view shows (qualified type, service, origin, stack trace, attributes) are made
        // safe when it draws them, not here for every line of a flood: the buffer writer escapes whatever reaches
        // it, and the detail view sanitises each value it lays out.
        if state.logs.count >= state.logCapacity {
            let dropped = state.logs.removeFirst()
            if dropped.sequence == state.selectedSequence { state.selectedSequence = nil }
            if state.filteredLogs.first?.sequence == dropped.sequence { state.filteredLogs.removeFirst() }
        }
        state.logs.append(event)
        if state.isFiltering, state.matches(event) { state.filteredLogs.append(event) }
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
