import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// The trace store's budget (spans and bytes, oldest traces out first, counted), and the traces errors belong to
/// reaching the UI as spans arrive.
struct TraceStoreTests {
    static func spans(_ count: Int, from first: UInt64 = 1, failing: Set<UInt64> = []) -> [TraceSpan] {
        (first..<first + UInt64(count)).map { id in
            TraceSpan(
                spanID: id, parentSpanID: id == 1 ? nil : id - 1, name: "span \(id)",
                status: failing.contains(id) ? .error : .unset, errors: failing.contains(id) ? 1 : 0)
        }
    }

    @Test func theOldestTracesGoFirstWhenTheSpanBudgetIsExceeded() {
        var store = TraceStore(budget: .init(spans: 100, bytes: 1 << 30))
        _ = store.insert(Self.spans(40), into: "a")
        _ = store.insert(Self.spans(40), into: "b")
        _ = store.insert(Self.spans(10), into: "a")  // a grows, but stays the oldest
        #expect(store.statistics.spans == 90 && store.statistics.traces == 2)
        _ = store.insert(Self.spans(30), into: "c")
        #expect(store.snapshot(of: "a") == nil, "the oldest trace went, whole")
        #expect(store.snapshot(of: "b")?.storedSpans == 40 && store.snapshot(of: "c")?.storedSpans == 30)
        #expect(store.statistics.evictedTraces == 1 && store.statistics.evictedSpans == 50)
        #expect(store.statistics.spans == 70)
    }

    @Test func theByteBudgetBindsToo() {
        let perSpan = TraceStore.bytes(of: Self.spans(2)[1])
        var store = TraceStore(budget: .init(spans: 1_000_000, bytes: perSpan * 25))
        _ = store.insert(Self.spans(20), into: "a")
        _ = store.insert(Self.spans(20), into: "b")
        #expect(store.snapshot(of: "a") == nil)
        #expect(store.statistics.bytes <= perSpan * 25)
        #expect(store.statistics.evictedTraces == 1)
    }

    @Test func oneTraceKeepsAtMostItsShareAndCountsTheRest() {
        var store = TraceStore(budget: .init(spans: 1_000))
        #expect(store.budget.spansPerTrace == 100)
        _ = store.insert(Self.spans(250), into: "big")
        let snapshot = store.snapshot(of: "big")
        #expect(snapshot?.storedSpans == 100 && snapshot?.droppedSpans == 150)
        #expect(store.statistics.droppedSpans == 150)
    }

    @Test func aSnapshotOfAHugeTraceKeepsTheFailingSpanAndItsAncestors() throws {
        var store = TraceStore(budget: .init(spans: 100_000))
        _ = store.insert(Self.spans(10_000, failing: [9_000]), into: "deep")
        let snapshot = try #require(store.snapshot(of: "deep"))
        #expect(snapshot.spans.count == TraceStore.snapshotLimit)
        #expect(snapshot.storedSpans == 10_000)
        let ids = Set(snapshot.spans.map(\.spanID))
        #expect(ids.contains(9_000) && ids.contains(8_999) && ids.contains(8_937), "the failing span and 63 above it")
        #expect(ids.contains(1), "then the first received")
    }

    @Test func watchedTracesArePostedAsTheyFillInAndWhenEvicted() throws {
        let runtime = DashboardRuntime(
            clock: ErasedClock(ManualClock()), startDate: Date(timeIntervalSince1970: 1_767_258_000),
            traceBudget: .init(spans: 300))
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
        func otlp(_ id: UInt64, trace: String = trace) -> TraceSpan {
            TraceSpan(traceID: trace, spanID: id, parentSpanID: id == 1 ? nil : 1, name: "span \(id)", service: "shop")
        }
        // An error names the trace before any span came (a log record's error, say).
        runtime.ingest.ingest(
            WireEvent(
                kind: .error, time: Date(), serviceName: "shop", exceptionType: "CardDeclined", traceID: trace,
                spanID: TraceSpan.hex(2)))
        _ = runtime.inbox.drain()
        runtime.ingest.ingest(spans: [otlp(1), otlp(2)])
        var snapshots = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { snapshot } else { nil }
        }
        #expect(snapshots.map(\.spans.count) == [2])
        runtime.ingest.ingest(spans: [otlp(3)])
        runtime.ingest.ingest(spans: (10..<40).map { otlp($0, trace: "unwatched") })
        snapshots = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { snapshot } else { nil }
        }
        #expect(snapshots.map(\.spans.count) == [3], "an unwatched trace posts nothing")
        // Enough newer spans to push the watched trace out: its last snapshot says so.
        for batch in 0..<10 {
            runtime.ingest.ingest(spans: (0..<30).map { otlp(UInt64(100 + $0), trace: "filler-\(batch)") })
        }
        snapshots = runtime.inbox.drain().compactMap { action -> TraceSnapshot? in
            if case .traceChanged(let snapshot) = action { snapshot } else { nil }
        }
        let last = try #require(snapshots.last)
        #expect(last.evicted && last.traceID == trace && last.spans.count == 3)
        #expect(runtime.ingest.traceStatistics.evictedTraces >= 1)
    }

    /// A ring of 1,000 spans (each the parent of the next, the last the parent of the first), larger than one
    /// snapshot: every parent the store holds but leaves out is named as such, so the screen never says a
    /// received parent was "not received" (issue 34, item 6).
    @Test func aRingLargerThanASnapshotNamesItsUnshownParents() throws {
        var store = TraceStore(budget: .init(spans: 20_000, bytes: 1 << 30))
        let ring = (UInt64(1)...1_000).map { id in
            TraceSpan(
                spanID: id, parentSpanID: id == 1 ? 1_000 : id - 1, name: "r\(id)", status: id == 500 ? .error : .unset,
                errors: id == 500 ? 1 : 0)
        }
        _ = store.insert(ring, into: "ring")
        let snapshot = try #require(store.snapshot(of: "ring"))
        #expect(snapshot.spans.count == TraceStore.snapshotLimit && snapshot.storedSpans == 1_000)
        let shown = Set(snapshot.spans.map(\.spanID))
        let missing = Set(snapshot.spans.compactMap(\.parentSpanID).filter { !shown.contains($0) })
        #expect(!missing.isEmpty)
        #expect(missing == snapshot.unshownParents)
    }
}
