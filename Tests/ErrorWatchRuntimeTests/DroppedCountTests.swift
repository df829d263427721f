import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// The Metrics pane's `dropped`: what the Logs pane did not show, each event counted once.
struct DroppedCountTests {
    struct LocalError: Error {}

    /// A runtime whose Logs feed has received one local error and waits for the UI to take it (frame pacing), so
    /// what is added next fills its subscription's buffer until it drops.
    static func runtimeWithAWaitingFeed() async -> DashboardRuntime {
        let runtime = DashboardRuntime(
            clock: ErasedClock(ManualClock()), startDate: Date(timeIntervalSince1970: 1_767_258_000))
        runtime.inbox.setFramePacing(true)
        runtime.start()
        runtime.stream.add(LocalError())
        // An explicit signal: the feed is parked in `untilTaken()`.
        while runtime.inbox.waitingFeeds == 0 { await Task.yield() }
        return runtime
    }

    @Test func remoteErrorsTheLogsFeedSkipsAreNotCountedAsDropped() async {
        let runtime = await Self.runtimeWithAWaitingFeed()
        let total = 5_000
        for n in 0..<total {
            runtime.ingest.ingest(
                WireEvent(
                    kind: .error, time: Date(timeIntervalSince1970: 1_767_258_000 + Double(n)),
                    exceptionType: "OrderError", exceptionMessage: "order \(n) failed"))
        }
        let capacity = runtime.inbox.eventCapacity
        #expect(runtime.stream.statistics.dropped == UInt64(total - capacity), "the feed's buffer gave way")
        let snapshot = runtime.sampleMetrics()
        // The ingest posted every remote error to the inbox, which keeps the newest `capacity` with the local one.
        #expect(runtime.inbox.sampledOut == UInt64(total + 1 - capacity))
        #expect(snapshot.droppedEvents == runtime.inbox.sampledOut, "each event not shown is counted once")
        #expect(snapshot.droppedEvents < UInt64(total + 1))
        runtime.stop()
    }

    @Test func localErrorsTheLogsFeedDroppedAreCounted() async {
        let runtime = await Self.runtimeWithAWaitingFeed()
        let storm = 3_000
        for _ in 0..<storm { runtime.stream.add(LocalError()) }
        let dropped = UInt64(storm - runtime.inbox.eventCapacity)
        #expect(runtime.stream.statistics.dropped == dropped)
        #expect(runtime.inbox.sampledOut == 0, "the one the feed posted is all the inbox holds")
        #expect(runtime.sampleMetrics().droppedEvents == dropped)
        runtime.stop()
    }
}
