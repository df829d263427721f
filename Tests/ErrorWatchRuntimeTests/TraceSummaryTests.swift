import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// The Traces view's rows as the trace store sums them up (issue 37): every trace, watched or not, with the oldest
/// trace still held, so rows of evicted traces leave the view; opening a trace sends its spans.
struct TraceSummaryTests {
    static func span(_ trace: String, _ id: UInt64, parent: UInt64? = nil, failed: Bool = false) -> TraceSpan {
        TraceSpan(
            traceID: trace, spanID: id, parentSpanID: parent, name: "span \(id)", service: "shop",
            startUnixNano: 1_000 + id, endUnixNano: 2_000 + id, status: failed ? .error : .ok)
    }

    @Test func everyTraceHeldHasARowThatFollowsItsSpans() throws {
        var store = TraceStore(budget: .init(spans: 10, bytes: 1 << 30))
        let first = store.insert([Self.span("a", 1), Self.span("a", 2, parent: 1, failed: true)], into: "a")
        var row = try #require(first.summary)
        #expect(row.arrival == 1 && row.heldFrom == 1 && row.spanCount == 2 && row.failedSpans == 1)
        #expect(row.rootName == "span 1" && !row.rootIsOrphan && row.durationNanos == 1_001)
        row = try #require(store.insert([Self.span("b", 5, parent: 4)], into: "b").summary)
        #expect(row.arrival == 2 && row.rootIsOrphan && row.rootName == "span 5")
        // Nine spans more push "a" out: the row of "c" says the store holds from arrival 2 on.
        row = try #require(store.insert((10..<19).map { Self.span("c", $0) }, into: "c").summary)
        #expect(row.arrival == 3 && row.heldFrom == 2)
        #expect(store.summaries.map(\.traceID) == ["b", "c"])
    }

    @Test func theBoardPostsRowsOfUnwatchedTracesAndOpeningSendsTheSpans() throws {
        let runtime = DashboardRuntime(
            clock: ErasedClock(ManualClock()), startDate: Date(timeIntervalSince1970: 1_767_258_000),
            traceBudget: .init(spans: 300))
        runtime.ingest.ingest(spans: [Self.span("t1", 1), Self.span("t2", 1), Self.span("t1", 2, parent: 1)])
        let actions = runtime.inbox.drain()
        let rows = actions.compactMap { action -> TraceSummary? in
            if case .traceSummarized(let row) = action { row } else { nil }
        }
        #expect(rows.map(\.traceID) == ["t1", "t2"] && rows.map(\.spanCount) == [2, 1])
        #expect(!actions.contains { if case .traceChanged = $0 { true } else { false } }, "nothing is watched")
        runtime.perform(.traceOpened("t1"))
        let snapshots = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { snapshot } else { nil }
        }
        #expect(snapshots.map(\.spans.count) == [2])
        runtime.perform(.traceOpened("gone"))
        let gone = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { snapshot } else { nil }
        }
        #expect(gone.map(\.evicted) == [true] && gone.first?.spans.isEmpty == true)
    }
}
