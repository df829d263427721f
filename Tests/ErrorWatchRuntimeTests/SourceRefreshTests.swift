import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// `RemoteIngest.refresh`: the once-a-second counts of live socket producers reach rows already shown, never
/// rows not shown yet, and never revive a row that ended.
struct SourceRefreshTests {
    private func row(_ id: String, _ health: StatusHealth, events: UInt64) -> SourceStatus {
        SourceStatus(
            id: id, kind: .socket, name: id, state: health == .idle ? "disconnected" : "connected", health: health,
            events: events)
    }

    private func shown(_ runtime: DashboardRuntime) -> [SourceStatus]? {
        runtime.inbox.drain().compactMap { action -> [SourceStatus]? in
            if case .sourcesChanged(let list) = action { return list }
            return nil
        }.last
    }

    @Test func liveRowsTakeNewCountsEndedAndUnknownRowsDoNot() {
        let runtime = DashboardRuntime(clock: ErasedClock(ManualClock()), startDate: Date(timeIntervalSince1970: 0))
        runtime.ingest.update(row("live", .ok, events: 1))
        runtime.ingest.update(row("ended", .idle, events: 40))
        _ = runtime.inbox.drain()

        runtime.ingest.refresh([
            row("live", .ok, events: 9_122), row("ended", .ok, events: 39), row("new", .ok, events: 5),
        ])
        let list = shown(runtime)
        #expect(list?.map(\.id) == ["live", "ended"])
        #expect(list?.map(\.events) == [9_122, 40])
        #expect(list?.last?.health == .idle)

        runtime.ingest.refresh([row("live", .ok, events: 9_122)])  // nothing changed: nothing posted
        #expect(shown(runtime) == nil)
    }
}
