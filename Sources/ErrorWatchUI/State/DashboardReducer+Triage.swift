import Foundation

/// Triage keys: what `R`, `N`, `I`, `Z`, `c` and `U` do to the issue selected in the Issues view or open in a
/// detail view. The state shows the decision at once; the `.triage` effect takes it to the runtime, whose tracker
/// and store keep it.
extension DashboardReducer {
    /// `Z` snoozes for the first; pressed again on a snoozed issue, for the next, and after the last the first again.
    static let snoozeSteps: [TimeInterval] = [3_600, 86_400, 604_800]

    static func triage(_ asked: IssueTriageAction, state: inout DashboardState, effects: inout [DashboardEffect])
        -> Bool
    {
        guard let fingerprint = triageTarget(state) else {
            return say("select an issue first (v: Issues view)", &state)
        }
        guard let issue = state.errors.issues.first(where: { $0.fingerprint == fingerprint }) else {
            return say("no such issue", &state)
        }
        var action = asked
        if case .ignore(.duration(snoozeSteps[0])) = action, issue.triage.status == .ignored,
            let until = issue.triage.ignoredUntil, let since = issue.triage.changedAt,
            let step = snoozeSteps.firstIndex(where: { abs($0 - until.timeIntervalSince(since)) < 1 }),
            step + 1 < snoozeSteps.count
        {
            action = .ignore(.duration(snoozeSteps[step + 1]))
        }
        _ = state.errors.reduce(.triaged(fingerprint: fingerprint, action, at: state.screen.now))
        effects.append(.triage(fingerprint: fingerprint, action))
        var message = issue.typeName + ": " + action.summary
        if action == .resolveInNextRelease {
            let triaged = state.errors.issues.first { $0.fingerprint == fingerprint }?.triage
            message += triaged?.resolvedThrough.map { " (after \($0))" } ?? " (no version seen yet)"
        }
        return say(message, &state)
    }

    /// The issue a triage key acts on: the one open in the detail view, else the Issues view's selection.
    static func triageTarget(_ state: DashboardState) -> String? {
        if case .issue(let fingerprint)? = state.detail.target { return fingerprint }
        guard state.detail.target == nil, state.errors.view == .issues else { return nil }
        let rows = state.errors.rowFingerprints(state.filter, at: state.screen.now)
        guard !rows.isEmpty else { return nil }
        return rows[state.errors.selectedIndex(rows: rows)]
    }
}
