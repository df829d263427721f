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
        var action = asked
        guard let fingerprint = triageTarget(state) else {
            state.screen.statusMessage = "select an issue first (v: Issues view)"
            return true
        }
        guard let index = state.errors.issues.firstIndex(where: { $0.fingerprint == fingerprint }) else {
            state.screen.statusMessage = "no such issue"
            return true
        }
        var issue = state.errors.issues[index]
        if case .ignore(.duration(snoozeSteps[0])) = action, issue.triage.status == .ignored,
            let until = issue.triage.ignoredUntil, let since = issue.triage.changedAt,
            let step = snoozeSteps.firstIndex(where: { abs($0 - until.timeIntervalSince(since)) < 1 }),
            step + 1 < snoozeSteps.count
        {
            action = .ignore(.duration(snoozeSteps[step + 1]))
        }
        issue.triage.apply(
            action, count: issue.count, newestVersion: IssueVersion.newest(in: issue.versions)?.version,
            at: state.screen.now)
        state.errors.issues[index] = issue
        effects.append(.triage(fingerprint: fingerprint, action))
        var message = issue.typeName + ": " + action.summary
        if action == .resolveInNextRelease {
            message += issue.triage.resolvedThrough.map { " (after \($0))" } ?? " (no version seen yet)"
        }
        state.screen.statusMessage = message
        return true
    }

    /// Opening an issue ends its "new" mark.
    static func markOpened(_ fingerprint: String, state: inout DashboardState, effects: inout [DashboardEffect]) {
        guard let index = state.errors.issues.firstIndex(where: { $0.fingerprint == fingerprint }),
            !state.errors.issues[index].triage.opened
        else { return }
        state.errors.issues[index].triage.opened = true
        effects.append(.triage(fingerprint: fingerprint, .markOpened))
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
