import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Alerts are folded where errors are added, so an alert's count is every error of its run: a file opened from its
/// start had shown `×9,216` beside `errors 9,638` while the alerts were a subscription that a flood outran.
struct AlertFeedTests {
    struct GatewayDown: Error {}

    static func event(_ sequence: UInt64, origin: ErrorOrigin = .user) -> ErrorEvent {
        ErrorEvent(
            error: GatewayDown(), sequence: sequence, timestamp: Date(timeIntervalSince1970: 1_800_000_000),
            context: ErrorContext(source: "checkout", origin: origin))
    }

    /// 20,000 errors of one group from four tasks at once, nobody draining the inbox meanwhile: one alert, counted
    /// 20,000, and the last one posted is the latest count whichever task added the last error.
    @Test func everyErrorCountsInItsAlertWhateverTheRateAndThread() async {
        let inbox = ActionInbox()
        let feed = AlertFeed(inbox: inbox, clock: ErasedClock(ManualClock()))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for n in 0..<5_000 { feed.receive(Self.event(UInt64(task * 5_000 + n))) }
                }
            }
        }
        feed.receive(Self.event(99_999, origin: .background))
        let alerts = inbox.drain().compactMap { action -> AlertRecord? in
            guard case .alertReceived(let alert) = action else { return nil }
            return alert
        }
        #expect(alerts.count == 1)
        #expect(alerts.first?.count == 20_000)
    }

    /// 10,000 distinct errors alerting at once (a flood of unique types) keep at most ``AlertFeed/groupLimit``
    /// groups, the most recent ones: the newest still coalesces into its alert.
    @Test func aFloodOfDistinctAlertsKeepsBoundedGroups() {
        struct Distinct: ClassifiedError {
            let n: Int
            var category: ErrorCategory { .transient }
            var code: ErrorCode { ErrorCode("F", 1) }
            var fingerprint: String { "distinct-\(n)" }
        }
        let inbox = ActionInbox()
        let feed = AlertFeed(inbox: inbox, clock: ErasedClock(ManualClock()))
        let context = ErrorContext(source: "flood", origin: .user)
        for n in 0..<10_000 {
            feed.receive(ErrorEvent(error: Distinct(n: n), sequence: UInt64(n), timestamp: Date(), context: context))
        }
        #expect(feed.groupCount <= AlertFeed.groupLimit)
        _ = inbox.drain()
        feed.receive(Self.event(10_000))
        feed.receive(Self.event(10_001))
        let counts = inbox.drain().compactMap { action -> Int? in
            guard case .alertReceived(let alert) = action else { return nil }
            return alert.count
        }
        #expect(counts == [2])
    }
}
