import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Errors added together (a socket's read, a request, a piece of a file) are counted, grouped into issues and folded
/// into alerts under one lock per batch: what that gives must be what counting them one by one gives.
struct CountingBatchTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// Remote errors of five types from three services, a few of background origin, some out of time order, and
    /// local errors among them.
    static func events() -> [ErrorEvent] {
        (0..<200).map { n in
            let sequence = UInt64(n + 1)
            let time = t0.addingTimeInterval(Double(n % 17 == 0 ? n - 30 : n))
            let origin: ErrorOrigin = n % 11 == 0 ? .background : .user
            if n % 9 == 0 {
                return ErrorEvent(
                    error: URLError(.timedOut), sequence: sequence, timestamp: time,
                    context: ErrorContext(source: "local", origin: origin))
            }
            let error = RemoteError(
                typeName: "Shop.Error\(n % 5)", message: "order \(n) failed", category: n % 4 == 0 ? nil : .transient,
                provenance: Provenance(time: time, service: ["cart", "pay", "ship"][n % 3]))
            return ErrorEvent(
                error: error, sequence: sequence, timestamp: time,
                context: ErrorContext(source: "checkout", origin: origin, remote: error))
        }
    }

    /// A counter, an issue tracker of `capacity` and an alert feed, as the runtime wires them.
    struct Counters {
        let inbox = ActionInbox()
        let counter = ErrorCounter(metrics: DashboardMetrics())
        let issues: IssueTracker
        let alerts: AlertFeed

        init(capacity: Int) {
            issues = IssueTracker(capacity: capacity)
            alerts = AlertFeed(inbox: inbox, clock: ErasedClock(ManualClock()))
        }

        func count(_ event: ErrorEvent) {
            let facts = ErrorFacts(event)
            counter.count(event, facts: facts)
            issues.count(event, facts: facts)
            alerts.receive(event)
        }

        func count(contentsOf events: [ErrorEvent]) {
            let facts = events.map(ErrorFacts.init)
            counter.count(contentsOf: events, facts: facts)
            issues.count(contentsOf: events, facts: facts)
            alerts.receive(contentsOf: events)
        }

        /// Everything they show: totals, the issues and those forgotten, the alerts posted in order.
        func shown() -> [String] {
            let totals = counter.totals
            let sample = issues.sample(at: CountingBatchTests.t0.addingTimeInterval(600))
            let alertsPosted = inbox.drain().compactMap { action -> AlertRecord? in
                guard case .alertReceived(let alert) = action else { return nil }
                return alert
            }
            return ["total \(totals.total)", "types \(totals.byType)", "other \(totals.otherTypes)"]
                + ["categories \(totals.byCategory.sorted { $0.key.rawValue < $1.key.rawValue })"]
                + ["unclassified \(totals.unclassified)", "forgotten \(sample.evicted)"]
                + sample.changed.sorted { $0.fingerprint < $1.fingerprint }.map { "\($0)" }
                + alertsPosted.map { "\($0)" }
        }
    }

    @Test(arguments: [1, 7, 64, 200])
    func batchesCountWhatOneByOneCounts(batchSize: Int) {
        let events = Self.events()
        // Capacity 4 of 6 groups: issues are forgotten on the way, in an order batches must keep.
        let single = Counters(capacity: 4)
        for event in events { single.count(event) }
        let batched = Counters(capacity: 4)
        for start in stride(from: 0, to: events.count, by: batchSize) {
            batched.count(contentsOf: Array(events[start..<min(start + batchSize, events.count)]))
        }
        let expected = single.shown()
        #expect(expected.count > 10, "issues and alerts were made")
        #expect(expected.contains { $0.hasPrefix("forgotten [") && $0 != "forgotten []" }, "issues were forgotten")
        #expect(batched.shown() == expected)
    }
}
