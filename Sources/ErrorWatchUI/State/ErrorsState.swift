import DequeModule
import Foundation

/// The Errors slice of ``DashboardState``: the alerts (what users were told) and the issues (every error,
/// grouped), which of the two the pane lists, its order, selection and scroll. Changed only by ``reduce(_:)``,
/// with the actions of ``Action``: the filters and the time come with the actions that need them.
public struct ErrorsState: Sendable, Equatable {
    /// Active alerts, most recently seen first, at most ``alertCapacity``.
    public private(set) var alerts: Deque<AlertRecord> = []
    /// How many alerts are kept.
    public let alertCapacity: Int
    /// Every error grouped by fingerprint, counted exactly upstream; the Issues view sorts them.
    public private(set) var issues: [IssueRecord] = []
    /// What the pane lists: alerts (what users were told) or issues (every error, grouped).
    public private(set) var view: ErrorsView = .alerts
    /// How the Issues view is sorted (`O` cycles).
    public private(set) var issueOrder: IssueOrder = .lastSeen
    /// The selected alert or issue, by fingerprint; `nil` selects the newest (first) row, following it.
    public private(set) var selectedFingerprint: String?
    /// First row shown.
    public private(set) var scroll = 0

    /// No alerts or issues yet, keeping at most `alertCapacity` alerts.
    public init(alertCapacity: Int = 200) { self.alertCapacity = max(1, alertCapacity) }

    /// Alerts not yet expired, most recent first, that pass `filter`. Alerts fade after
    /// ``DashboardState/alertFadeAfter`` seconds without a repeat and are dropped after
    /// ``DashboardState/alertExpiresAfter``.
    public func visibleAlerts(_ filter: FilterState) -> [AlertRecord] { alerts.filter { filter.matches($0) } }

    /// Issues in the chosen order that pass `filter` at `now` (resolved and ignored ones only when the query asks
    /// with `is:`).
    public func visibleIssues(_ filter: FilterState, at now: Date) -> [IssueRecord] {
        let latest = latestVersion
        let filtered = issues.filter { filter.matches($0, at: now, latestVersion: latest) }
        switch issueOrder {
        case .lastSeen:
            return filtered.sorted { ($0.lastSeen, $0.count, $1.fingerprint) > ($1.lastSeen, $1.count, $0.fingerprint) }
        case .count:
            return filtered.sorted { ($0.count, $0.lastSeen, $1.fingerprint) > ($1.count, $1.lastSeen, $0.fingerprint) }
        }
    }

    /// The fingerprints of the pane's rows, in display order (alerts or issues, passing `filter`).
    func rowFingerprints(_ filter: FilterState, at now: Date) -> [String] {
        switch view {
        case .alerts: visibleAlerts(filter).map(\.fingerprint)
        case .issues: visibleIssues(filter, at: now).map(\.fingerprint)
        case .patterns, .traces, .services: []
        }
    }

    /// The newest version any issue was seen in (semantic versions compared where they parse, else first seen),
    /// for `version:latest`.
    public var latestVersion: String? {
        var newestPerIssue: [IssueVersion] = []
        for issue in issues {
            if let newest = IssueVersion.newest(in: issue.versions) { newestPerIssue.append(newest) }
        }
        return IssueVersion.newest(in: newestPerIssue)?.version
    }

    /// The selected row's index: the selected fingerprint's, or 0 (the newest) when none is selected or it is
    /// gone.
    func selectedIndex(rows: [String]) -> Int {
        guard let selectedFingerprint, let index = rows.firstIndex(of: selectedFingerprint) else { return 0 }
        return index
    }

    /// What changes the Errors slice.
    enum Action: Sendable {
        /// The alert coalescer produced or updated an alert.
        case alertReceived(AlertRecord)
        /// The runtime's exact issue counts: issues upserted by fingerprint, and those it stopped keeping.
        case issuesSampled(changed: [IssueRecord], evicted: [String])
        /// The clock moved on: alerts not seen for ``DashboardState/alertExpiresAfter`` seconds go.
        case ticked(Date)
        /// A scroll key with the pane focused, in a view of `page` rows over the rows that pass `filter` at `now`.
        case selectionMoved(ScrollMove, page: Int, filter: FilterState, now: Date)
        /// `v`: Alerts → Issues → Patterns → Traces → Alerts, from the newest row.
        case viewCycled
        /// `O`: the next order of the Issues view, which is shown.
        case issueOrderCycled
        /// A query was applied: the list starts again from the newest row.
        case queryApplied
        /// An error type was shown or hidden: the list scrolls back to the top.
        case typeFilterToggled
        /// The issue `fingerprint` was triaged at `date` (the state shows it at once; the runtime keeps it).
        case triaged(fingerprint: String, IssueTriageAction, at: Date)
        /// The issue `fingerprint` was opened: it is no longer new.
        case issueOpened(String)
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .alertReceived(let alert):
            return upsert(alert)
        case .issuesSampled(let updated, let evicted):
            if !evicted.isEmpty {
                let gone = Set(evicted)
                issues.removeAll { gone.contains($0.fingerprint) }
            }
            for issue in updated.suffix(DashboardState.issueCapacity).map(Self.sanitized) {
                if let index = issues.firstIndex(where: { $0.fingerprint == issue.fingerprint }) {
                    issues[index] = issue
                } else {
                    issues.append(issue)
                }
            }
            if issues.count > DashboardState.issueCapacity {
                issues.sort { $0.lastSeen > $1.lastSeen }
                issues.removeLast(issues.count - DashboardState.issueCapacity)
            }
            return !updated.isEmpty || !evicted.isEmpty
        case .ticked(let date):
            let count = alerts.count
            alerts.removeAll { date.timeIntervalSince($0.lastReceived) > DashboardState.alertExpiresAfter }
            return count != alerts.count
        case .selectionMoved(let move, let page, let filter, let now):
            moveSelection(move, page: page, rows: rowFingerprints(filter, at: now))
        case .viewCycled:
            view =
                switch view {
                case .alerts: .issues
                case .issues: .patterns
                case .patterns: .traces
                case .traces: .services
                case .services: .alerts
                }
            selectedFingerprint = nil
            scroll = 0
        case .issueOrderCycled:
            let orders = IssueOrder.allCases
            issueOrder = orders[(orders.firstIndex(of: issueOrder)! + 1) % orders.count]
            view = .issues
        case .queryApplied:
            scroll = 0
            selectedFingerprint = nil
        case .typeFilterToggled:
            scroll = 0
        case .triaged(let fingerprint, let triage, let date):
            guard let index = issues.firstIndex(where: { $0.fingerprint == fingerprint }) else { return false }
            let issue = issues[index]
            issues[index].triage.apply(
                triage, count: issue.count, newestVersion: IssueVersion.newest(in: issue.versions)?.version, at: date)
        case .issueOpened(let fingerprint):
            guard let index = issues.firstIndex(where: { $0.fingerprint == fingerprint }),
                !issues[index].triage.opened
            else { return false }
            issues[index].triage.opened = true
        }
        return true
    }

    /// `j`/`k`, arrows, PgUp/PgDn move the selection through `rows`; `g` selects the oldest row (the last here, as
    /// in Logs), `G` the newest, which it then follows; the view scrolls to keep the selection visible.
    private mutating func moveSelection(_ move: ScrollMove, page: Int, rows: [String]) {
        guard !rows.isEmpty else { return }
        let index = move.selection(
            from: selectedIndex(rows: rows), page: page, count: rows.count, top: rows.count - 1, bottom: 0)
        selectedFingerprint = index == 0 ? nil : rows[index]
        scroll = ScrollMove.firstRow(showing: index, from: scroll, page: page, count: rows.count)
    }

    /// Inserts or replaces an alert by fingerprint; returns whether anything changed.
    private mutating func upsert(_ incoming: AlertRecord) -> Bool {
        guard incoming.origin != .background else { return false }
        var alert = incoming
        alert.title = Sanitizer.sanitize(alert.title, limit: 200)
        alert.source = Sanitizer.sanitize(alert.source, limit: 60)
        alert.typeName = Sanitizer.sanitize(alert.typeName, limit: 60)
        if let index = alerts.firstIndex(where: { $0.fingerprint == alert.fingerprint }) { alerts.remove(at: index) }
        alerts.prepend(alert)
        if alerts.count > alertCapacity { alerts.removeLast() }
        return true
    }

    /// An issue with its text made safe to draw.
    static func sanitized(_ incoming: IssueRecord) -> IssueRecord {
        var issue = incoming
        issue.typeName = Sanitizer.sanitize(issue.typeName, limit: 60)
        issue.qualifiedTypeName = Sanitizer.sanitize(issue.qualifiedTypeName, limit: 200)
        issue.services = issue.services.prefix(8).map { Sanitizer.sanitize($0, limit: 40) }
        issue.recent = issue.recent.prefix(IssueRecord.occurrenceLimit).map { occurrence in
            var occurrence = occurrence
            occurrence.message = Sanitizer.sanitize(occurrence.message, limit: DashboardReducer.messageLimit)
            occurrence.service = occurrence.service.map { Sanitizer.sanitize($0, limit: 40) }
            return occurrence
        }
        return issue
    }
}
