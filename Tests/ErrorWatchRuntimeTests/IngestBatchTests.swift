import ErrorStreaming
@testable import ErrorWatchRuntime
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

/// A batch (a piece of a file, an OTLP request) shows in the Logs pane exactly what its events ingested one by one
/// would: the same events in the same order, the same ones given way, while the inbox is posted to once.
struct IngestBatchTests {
    /// Errors and log lines, interleaved: every third is an error.
    static func events(_ count: Int) -> [WireEvent] {
        (0..<count).map { n in
            let time = Date(timeIntervalSince1970: 1_000 + Double(n))
            if n % 3 == 0 {
                return WireEvent(kind: .error, time: time, exceptionType: "OrderError", exceptionMessage: "order \(n)")
            }
            return WireEvent(kind: .log, time: time, body: "line \(n)")
        }
    }

    /// What the Logs pane receives at the next drain: kind, message and sequence of each event.
    static func shown(_ inbox: ActionInbox) -> [String] {
        inbox.drain().flatMap { action -> [String] in
            guard case .eventsReceived(let events) = action else { return [] }
            return events.map { "\($0.kind) \($0.message) #\($0.sequence)" }
        }
    }

    /// How many times an inbox woke the UI.
    final class Wakes: Sendable {
        let count = Mutex(0)
    }

    /// An inbox holding two earlier events, and an ingest into it.
    static func ingest(capacity: Int) -> (RemoteIngest, ActionInbox, Wakes) {
        let inbox = ActionInbox(eventCapacity: capacity)
        let wakes = Wakes()
        inbox.setWaker { wakes.count.withLock { $0 += 1 } }
        let ingest = RemoteIngest(
            stream: ErrorStream(), inbox: inbox, metrics: DashboardMetrics(), now: { Date(timeIntervalSince1970: 0) })
        for event in events(2) { ingest.ingest(event, from: "before") }
        return (ingest, inbox, wakes)
    }

    /// Also with more errors than a batch adds at once (``RemoteIngest/errorsAddedTogether``): the errors it shows
    /// were added early, late, or gave way before they were added.
    @Test(arguments: [(20, 1), (20, 4), (20, 7), (20, 64), (2_000, 7), (2_000, 300), (2_000, 2_048)])
    func aBatchShowsWhatOneByOneWouldAndGivesWayAlike(count: Int, capacity: Int) {
        let events = Self.events(count)
        let (single, singleInbox, _) = Self.ingest(capacity: capacity)
        for event in events { single.ingest(event, from: "file a.log", channel: .file) }

        let (batched, batchedInbox, wakes) = Self.ingest(capacity: capacity)
        batched.ingestBatch { batch in
            for event in events { batched.ingest(event, from: "file a.log", channel: .file, into: &batch) }
        }
        #expect(batchedInbox.sampledOut == singleInbox.sampledOut)
        #expect(batchedInbox.sampledOut == UInt64(max(0, count + 2 - capacity)))
        let shown = Self.shown(batchedInbox)
        #expect(shown == Self.shown(singleInbox))
        #expect(shown.count == min(count + 2, capacity))
        #expect(shown.last == "log line \(count - 1) #0")
        #expect(wakes.count.withLock { $0 } == 1, "the two before woke the UI; the batch found it awake")
        if count > 1_000 {
            #expect(events.count { $0.kind == .error } > 2 * RemoteIngest.errorsAddedTogether)
            if capacity > 1 { #expect(shown.suffix(2).first == "error order 1998 #668") }
        }
    }

    /// A caller that counts what shows before ingesting (a file's hand-on) passes over those that would give way:
    /// the pane gets the same events, the same count given way, and a recording still sees every event.
    @Test(arguments: [1, 4, 7, 64])
    func aBatchToldWhatGivesWayShowsTheSame(capacity: Int) {
        var events = Self.events(20)
        // Metrics do not show: they are not counted among those that give way.
        events.insert(WireEvent(kind: .metric, time: events[4].time, metricName: "queue.depth", metricValue: 3), at: 5)
        let (single, singleInbox, _) = Self.ingest(capacity: capacity)
        for event in events { single.ingest(event, from: "file a.log", channel: .file) }

        let (batched, batchedInbox, _) = Self.ingest(capacity: capacity)
        let observed = Mutex(0)
        batched.observe { _ in observed.withLock { $0 += 1 } }
        let showing = events.filter(RemoteIngest.showsInLogs).count
        #expect(showing == 20)
        batched.ingestBatch { batch in
            batch.passOver(showing - batch.capacity)
            for event in events { batched.ingest(event, from: "file a.log", channel: .file, into: &batch) }
        }
        #expect(observed.withLock { $0 } == 21)
        #expect(batchedInbox.sampledOut == singleInbox.sampledOut)
        #expect(batchedInbox.sampledOut == UInt64(max(0, 22 - capacity)))
        let shown = Self.shown(batchedInbox)
        #expect(shown == Self.shown(singleInbox))
        #expect(shown.count == min(22, capacity))
    }

    @Test func aBatchKeepsWhereEachEventWasReadAndWhen() {
        let (ingest, inbox, _) = Self.ingest(capacity: 64)
        _ = inbox.drain()
        ingest.ingestBatch { batch in
            for (n, event) in Self.events(4).enumerated() {
                ingest.ingest(event, from: "file \(n % 2).log", channel: .file, into: &batch)
            }
        }
        let events = inbox.drain().flatMap { action -> [DashboardEvent] in
            guard case .eventsReceived(let events) = action else { return [] }
            return events
        }
        #expect(events.map(\.provenance?.receivedFrom) == ["file 0.log", "file 1.log", "file 0.log", "file 1.log"])
        #expect(events.map(\.provenance?.channel) == [.file, .file, .file, .file])
        #expect(events.map(\.timestamp) == (0..<4).map { Date(timeIntervalSince1970: 1_000 + Double($0)) })
        #expect(Set(events.compactMap(\.provenance?.receivedAt)) == [Date(timeIntervalSince1970: 0)])
    }

    @Test func anEmptyBatchPostsNothing() {
        let inbox = ActionInbox()
        let ingest = RemoteIngest(
            stream: ErrorStream(), inbox: inbox, metrics: DashboardMetrics(), now: { Date(timeIntervalSince1970: 0) })
        ingest.ingestBatch { _ in }
        #expect(inbox.isEmpty)
        #expect(inbox.sampledOut == 0)
    }

    /// A batch's errors reach the stream together, in order, with consecutive sequence numbers; the ones before a
    /// handling report are added before it, so the report still joins the local event its error became.
    @Test func aBatchAddsItsErrorsTogetherAndAHandlingReportStillJoinsItsError() throws {
        let calls = Mutex<[[UInt64]]>([])
        let stream = ErrorStream(onAddBatch: { events in calls.withLock { $0.append(events.map(\.sequence)) } })
        let inbox = ActionInbox()
        let ingest = RemoteIngest(
            stream: stream, inbox: inbox, metrics: DashboardMetrics(), now: { Date(timeIntervalSince1970: 0) })
        let time = Date(timeIntervalSince1970: 1_000)
        func error(_ sequence: UInt64) -> WireEvent {
            WireEvent(
                kind: .error, time: time, serviceName: "shop", exceptionType: "OrderError",
                exceptionMessage: "order \(sequence)", sequence: sequence)
        }
        let report = WireEvent(
            kind: .handling, time: time, serviceName: "shop", sequence: 8, handlingPath: ["app"],
            handlingOutcome: "consumed by app", handlingHandled: true)
        ingest.ingestBatch { batch in
            for event in [error(7), error(8), WireEvent(kind: .log, time: time, body: "retrying"), report, error(9)] {
                ingest.ingest(event, from: "socket #1", channel: .socket, into: &batch)
            }
        }
        #expect(calls.withLock { $0 } == [[1, 2], [3]], "two errors before the report, together; the last at the end")
        let actions = inbox.drain()
        let joined = actions.compactMap { action -> UInt64? in
            guard case .handlingReported(let sequence, _) = action else { return nil }
            return sequence
        }
        #expect(joined == [2], "the producer's error 8 became local event 2")
        let shown = actions.flatMap { action -> [String] in
            guard case .eventsReceived(let events) = action else { return [] }
            return events.map { "\($0.message) #\($0.sequence)" }
        }
        #expect(shown == ["order 7 #1", "order 8 #2", "retrying #0", "order 9 #3"])
    }

    /// Errors a batch adds after the stream is finished are ignored, and show nowhere.
    @Test func aBatchIntoAFinishedStreamShowsNoError() {
        let stream = ErrorStream()
        let inbox = ActionInbox()
        let ingest = RemoteIngest(
            stream: stream, inbox: inbox, metrics: DashboardMetrics(), now: { Date(timeIntervalSince1970: 0) })
        stream.finish()
        ingest.ingestBatch { batch in
            for event in Self.events(4) { ingest.ingest(event, from: "file a.log", channel: .file, into: &batch) }
        }
        #expect(Self.shown(inbox) == ["log line 1 #0", "log line 2 #0"])
        #expect(stream.statistics.addedAfterFinish == 2)
    }
}
