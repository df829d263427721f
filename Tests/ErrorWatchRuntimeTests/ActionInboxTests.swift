import ErrorStreaming
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

struct ActionInboxTests {
    static func event(_ n: UInt64) -> DashboardEvent {
        DashboardEvent(
            sequence: n, timestamp: Date(timeIntervalSince1970: 0), kind: .error, level: .error, source: "test",
            typeName: "TestError", message: "error \(n)")
    }

    @Test func wakesOnceWhenItStopsBeingEmpty() {
        let inbox = ActionInbox()
        let wakes = Atomic<Int>(0)
        inbox.setWaker { wakes.add(1, ordering: .relaxed) }
        for n in 1...100 { inbox.post(event: Self.event(UInt64(n))) }
        inbox.post(.statusMessage("hello"))
        #expect(wakes.load(ordering: .relaxed) == 1)
        _ = inbox.drain()
        inbox.post(.statusMessage("again"))
        #expect(wakes.load(ordering: .relaxed) == 2)
    }

    /// A regression test: the waker used to be re-wrapped in a thunk on every post, so calling it recursed once
    /// per earlier post and a long run overflowed the stack.
    @Test func wakingStaysCheapAfterManyPosts() {
        let inbox = ActionInbox()
        let wakes = Atomic<Int>(0)
        inbox.setWaker { wakes.add(1, ordering: .relaxed) }
        for _ in 0..<200_000 {
            inbox.post(.statusMessage("x"))
            _ = inbox.drain()
        }
        #expect(wakes.load(ordering: .relaxed) == 200_000)
    }

    @Test func drainBatchesEventsAndKeepsTheLatestSample() {
        let inbox = ActionInbox()
        inbox.post(event: Self.event(1))
        inbox.post(.metricsSampled(MetricsSnapshot(totalErrors: 1)))
        inbox.post(.statusMessage("x"))
        inbox.post(event: Self.event(2))
        inbox.post(.metricsSampled(MetricsSnapshot(totalErrors: 2)))
        let actions = inbox.drain()
        #expect(actions.count == 3)
        guard case .eventsReceived(let events) = actions[0] else {
            Issue.record("expected a batch first")
            return
        }
        #expect(events.map(\.sequence) == [1, 2])
        guard case .metricsSampled(let snapshot) = actions[2] else {
            Issue.record("expected the sample last")
            return
        }
        #expect(snapshot.totalErrors == 2)
        #expect(inbox.isEmpty)
    }

    @Test func keepsOnlyTheNewestEventsBetweenDrains() {
        let inbox = ActionInbox(eventCapacity: 10)
        for n in 1...25 { inbox.post(event: Self.event(UInt64(n))) }
        guard case .eventsReceived(let events) = inbox.drain().first else {
            Issue.record("expected a batch")
            return
        }
        #expect(events.map(\.sequence) == Array(16...25))
        #expect(inbox.sampledOut == 15)
    }
}

extension ActionInboxTests {
    /// A producer chooses status names and handling sequences: between two drains the inbox keeps a bounded number
    /// of new ones, and folds repeats of the same one.
    @Test func producerChosenKeysAreFoldedAndBoundedBetweenDrains() {
        let inbox = ActionInbox()
        let start = Date(timeIntervalSince1970: 0)
        for index in 0..<5_000 {
            inbox.post(
                .statusChanged(
                    StatusEntry(service: "flood", name: "s\(index)", state: "x", health: .ok, changedAt: start)))
            inbox.post(
                .handlingReported(sequence: 7, HandlingSummary(path: ["root"], outcome: "passed", handled: false)))
        }
        let drained = inbox.drain()
        let statuses = drained.filter { if case .statusChanged = $0 { true } else { false } }
        let handling = drained.filter { if case .handlingReported = $0 { true } else { false } }
        #expect(statuses.count == 1_024)
        #expect(handling.count == 1)
        #expect(inbox.drain().isEmpty)
    }
}

extension ActionInboxTests {
    static func issue(_ fingerprint: String, count: Int) -> IssueRecord {
        IssueRecord(
            fingerprint: fingerprint, typeName: "TestError", qualifiedTypeName: "Test.TestError",
            code: ErrorCode("T", 1), category: .transient, severity: .error, count: count,
            firstSeen: Date(timeIntervalSince1970: 0), lastSeen: Date(timeIntervalSince1970: 0))
    }

    /// Each action's own coalescing rule decides the fold; lanes come out in a fixed order whatever the order of
    /// posting: events, alerts, actions kept in order, statuses, issues, handling, sources, forgotten, metrics.
    @Test func lanesComeOutInTheirOrderWhateverThePostingOrder() {
        let inbox = ActionInbox()
        let start = Date(timeIntervalSince1970: 0)
        inbox.post(.metricsSampled(MetricsSnapshot(totalErrors: 1)))
        inbox.post(.sourcesForgotten(3))
        inbox.post(.sourcesChanged([]))
        inbox.post(.handlingReported(sequence: 1, HandlingSummary(path: [], outcome: "passed", handled: false)))
        inbox.post(.issuesSampled(changed: [Self.issue("a", count: 1)], evicted: []))
        inbox.post(.statusChanged(StatusEntry(name: "s", state: "x", health: .ok, changedAt: start)))
        inbox.post(.keyPressed(.character("p")))
        inbox.post(
            .alertReceived(
                AlertRecord(
                    fingerprint: "f", title: "t", code: "A-1", severity: .error, category: .transient, count: 1,
                    firstSeen: start, lastSeen: start, source: "test")))
        inbox.post(event: Self.event(1))
        inbox.post(.statusMessage("after the key"))
        let names = inbox.drain().map { action in
            String(describing: action).prefix { $0 != "(" }
        }
        #expect(
            names == [
                "eventsReceived", "alertReceived", "keyPressed", "statusMessage", "statusChanged", "issuesSampled",
                "handlingReported", "sourcesChanged", "sourcesForgotten", "metricsSampled",
            ])
    }

    /// Issue samples merge: upserted by fingerprint in first-arrival order, evictions taken out of what waits and
    /// accumulated.
    @Test func issueSamplesMergeBetweenDrains() {
        let inbox = ActionInbox()
        inbox.post(.issuesSampled(changed: [Self.issue("a", count: 1), Self.issue("b", count: 1)], evicted: []))
        inbox.post(.issuesSampled(changed: [Self.issue("c", count: 1), Self.issue("b", count: 2)], evicted: ["a"]))
        let drained = inbox.drain()
        #expect(drained.count == 1)
        guard case .issuesSampled(let changed, let evicted) = drained.first else {
            Issue.record("expected one merged sample")
            return
        }
        #expect(changed.map(\.fingerprint) == ["b", "c"])
        #expect(changed.map(\.count) == [2, 1])
        #expect(evicted == ["a"])
    }
}
