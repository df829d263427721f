import ErrorStreaming
import OrderedCollections
import ErrorWatchUI
import Foundation
import Synchronization

/// Folds user-origin errors into alerts where they are added (the stream's `onAdd`, beside counting), so an alert's
/// `×N` counts every error of its run however fast they come, as the Metrics total and the issue counts do. (As a
/// subscription with a bounded buffer it had counted what the buffer kept: a 2 MB log opened from its start showed
/// `×9,216` beside `errors 9,638`.)
///
/// Deciding and posting happen under one lock, so the alerts reach the inbox in the order of their counts: the last
/// one posted for a group is always its latest count, whichever threads added its errors.
final class AlertFeed: Sendable {
    fileprivate struct State {
        var coalescer: AlertCoalescer<ErasedClock>
        /// Each alert group's current run: when it started, and its title and short type, made once per run rather
        /// than once per coalesced error.
        var runs = RecentTable<String, AlertRun>(capacity: 4_096)
    }

    fileprivate struct AlertRun {
        var firstSeen: Date
        var firstReceived: Date
        var services: [String]
        var title: String
        var typeName: String
        /// A remote error's code as sent (empty when none) and whether it was classified.
        var codeText: String?
        var classified: Bool
    }

    /// The most alert groups remembered (each about 300 bytes; the Alerts view shows 200). Past it, with every
    /// group still active, the least recently seen are forgotten: their next error alerts anew, counted from one.
    static let groupLimit = 4_096

    private let state: Mutex<State>
    private let inbox: ActionInbox
    private let clock: ErasedClock

    init(inbox: ActionInbox, clock: ErasedClock) {
        self.inbox = inbox
        self.clock = clock
        let configuration = AlertCoalescer<ErasedClock>.Configuration(window: .seconds(30), quietPeriod: .seconds(10))
            // While the offline alert stands, timeouts are the same problem seen again. A 503 is not: the server
            // answered, so the network is back, and the user must hear about it.
            .suppressing([ErrorCode("N", 408)], whileActive: ErrorCode("N", 1))
        state = Mutex(State(coalescer: AlertCoalescer(clock: clock, configuration: configuration)))
    }

    /// Folds `event` into its alert and posts the alert, unless it is of background origin, `.expected`, or a
    /// follow-up of an active root cause.
    func receive(_ event: ErrorEvent) {
        guard let seen = Seen(event) else { return }
        let instant = clock.now
        state.withLock { state in
            if let alert = state.fold(seen, at: instant) { inbox.post(.alertReceived(alert)) }
        }
    }

    /// Folds errors added together, in order, under one lock, and posts their alerts in one step: as ``receive(_:)``
    /// one by one, at one instant. The inbox keeps an alert's latest record, in the order alerts were first posted:
    /// so only each alert's last record of the batch is posted, in the order of their first.
    func receive(contentsOf events: [ErrorEvent]) {
        let seen = events.compactMap(Seen.init)
        guard !seen.isEmpty else { return }
        let instant = clock.now
        state.withLock { state in
            var latest = OrderedDictionary<String, AlertRecord>()
            for seen in seen {
                if let alert = state.fold(seen, at: instant) { latest[alert.fingerprint] = alert }
            }
            inbox.post(contentsOf: latest.values.map { .alertReceived($0) })
        }
    }

    /// What an error brings to its alert, read before the lock; none for an error that never alerts (background
    /// origin, `.expected`).
    fileprivate struct Seen {
        var report: ErrorReport
        var remote: RemoteError?
        /// When the dashboard read it, and when it happened by its own time.
        var received: Date
        var time: Date
        var source: String

        init?(_ event: ErrorEvent) {
            guard event.origin == .user else { return nil }
            // A remote error is classified already: reading its fields spares casting the error to find out.
            let remote = event.context.remote
            let classification = remote.map { Classification($0) } ?? Classification(of: event.error)
            report = ErrorReport(classification: classification, context: event.context, timestamp: event.timestamp)
            guard report.classification.category != .expected else { return nil }
            self.remote = remote
            // Alerts are what this dashboard raised while it ran: they age and expire from when it read the error,
            // so an old log opened from its start still shows what failed; they say when it happened by its own time.
            received = event.timestamp
            time = remote?.provenance.time ?? received
            source = event.source
        }
    }

    /// Alert groups remembered now (at most ``groupLimit``).
    var groupCount: Int { state.withLock { $0.coalescer.groupCount } }

    /// Forgets the groups whose alerts are over (called with each metrics sample), so memory follows the alerts
    /// active now rather than every group ever seen.
    func prune() {
        let instant = clock.now
        state.withLock { $0.coalescer.prune(at: instant) }
    }
}

extension AlertFeed.State {
    /// Folds one error into its alert: the alert to post, or none (suppressed by a root cause, or ignored).
    fileprivate mutating func fold(_ seen: AlertFeed.Seen, at instant: ErasedClock.Instant) -> AlertRecord? {
        let alert: AlertCoalescer<ErasedClock>.Alert
        let known: AlertFeed.AlertRun?
        let isNewRun: Bool
        switch coalescer.receive(seen.report, at: instant) {
        case .alert(let started):
            alert = started
            known = nil  // a new run, even where an old one of this group is still in the table
            isNewRun = true
        case .coalesced(let grown):
            alert = grown
            // A run evicted from the table (thousands of groups at once) starts again from this error.
            known = runs[alert.fingerprint]
            isNewRun = false
        case .suppressed, .ignored:
            return nil
        }
        var run =
            known
            ?? AlertFeed.AlertRun(
                firstSeen: seen.time, firstReceived: seen.received, services: [],
                title: AlertRecord.title(for: seen.report.classification, logMessage: seen.remote?.logMessage),
                typeName: DashboardEvent.shortTypeName(seen.report.classification.typeName),
                codeText: seen.remote.map { $0.codeText ?? "" }, classified: seen.remote?.isClassified ?? true)
        var changed = known == nil
        // The run's services grow as its errors come from more of them (the first few).
        if let service = seen.remote?.provenance.service, run.services.count < 8, !run.services.contains(service) {
            run.services.append(service)
            changed = true
        }
        if seen.time < run.firstSeen {
            run.firstSeen = seen.time
            changed = true
        }
        // Most coalesced errors change nothing in their run: the table is written only when something did.
        if changed { runs[alert.fingerprint] = run }
        if isNewRun, coalescer.groupCount > AlertFeed.groupLimit {
            // Over the bound: the groups that are over go first, then, if thousands of distinct errors all
            // alert at once, the least recently seen (an eighth, so this runs once per 512 new groups).
            coalescer.prune(at: instant)
            coalescer.forget(keepingMostRecent: AlertFeed.groupLimit / 8 * 7)
        }
        return AlertRecord(
            fingerprint: alert.fingerprint, title: run.title, code: alert.code,
            severity: seen.report.classification.severity, category: run.classified ? alert.category : nil,
            count: alert.count, firstSeen: run.firstSeen, lastSeen: seen.time, source: seen.source,
            typeName: run.typeName, origin: .user, codeText: run.codeText,
            firstReceived: run.firstReceived, lastReceived: seen.received, services: run.services)
    }
}
