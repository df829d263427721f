import ErrorStreaming
import ErrorStreamingTesting
import Testing

struct ManualClockTests {
    @Test func sleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(5))])
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await task.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(5)))
    }

    @Test func sleepingUntilThePastReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(10))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(3)), tolerance: nil)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperThrowsCancellationError() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceNeverGoesBackwards() {
        let clock = ManualClock()
        clock.advance(by: .seconds(2))
        clock.advance(to: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(2))
    }

    @Test func oneAdvanceWakesEveryDueSleeperAndLeavesTheRest() async throws {
        let clock = ManualClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let medium = Task { try await clock.sleep(for: .seconds(2)) }
        let long = Task { try await clock.sleep(for: .seconds(10)) }
        await clock.waitForSleepers(count: 3)
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(1), .seconds(2), .seconds(10)])
        clock.advance(by: .seconds(3))
        try await short.value
        try await medium.value
        #expect(clock.pendingDeadlines.map(\.offset) == [.seconds(10)])
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }
}
