import CoreMetrics
import ErrorStreaming
import ErrorStreamingTesting
import Foundation
import Logging
import Testing

@testable import ErrorWatchDemo

/// An error storm lasts its duration, whatever rate it was asked for: what it cannot add in that time it does not
/// add afterwards.
struct DemoStormTests {
    /// A demo app on `clock` storming at `rate` errors a second for five seconds.
    func app(clock: some Clock<Duration>, rate: Int) -> DemoApp {
        DemoApp(
            stream: ErrorStream(), clock: ErasedClock(clock),
            configuration: DemoConfiguration(stormRate: rate, stormDuration: .seconds(5)),
            metrics: NOOPMetricsHandler.instance, now: { Date(timeIntervalSince1970: 0) },
            logHandler: { _ in SwiftLogNoOpLogHandler() }, statusSink: { _ in })
    }

    /// The machine was busy for 45 s after the first batch (the storm's sleep woke that late): the storm is over,
    /// and the 499 batches it is behind are not added.
    @Test func aStormThatWakesAfterItsDurationAddsNoMore() async {
        let clock = ManualClock()
        let app = app(clock: clock, rate: 10_000_000)
        let storm = Task { await app.runStorm() }
        await clock.waitForSleepers(count: 1)
        let firstBatch = app.stream.statistics.added
        #expect(firstBatch == 100_000)
        clock.advance(by: .seconds(45))
        await storm.value
        #expect(app.stream.statistics.added == firstBatch)
    }

    /// A machine that needs 100 ms of the clock for every thousand errors (10,000 a second) asked for ten million
    /// a second: the storm stops within a thousand errors of its end, in the middle of a batch.
    @Test func aStormFasterThanTheMachineStopsAtItsEnd() async {
        let clock = ManualClock()
        let app = app(clock: SlowMachineClock(clock: clock, costPerReading: .milliseconds(100)), rate: 10_000_000)
        await app.runStorm()
        let added = app.stream.statistics.added
        #expect(added > 0)
        // One reading per thousand errors, each 100 ms: 5 s is 50 readings, give or take the first.
        #expect(added <= 51 * UInt64(DemoApp.stormClockCheckInterval))
        #expect(clock.now.offset <= .seconds(5) + .milliseconds(200))
    }

    /// At a rate the machine keeps up with, the storm adds `rate × duration`, as before.
    @Test func aStormTheMachineKeepsUpWithAddsItsRate() async {
        let clock = ManualClock()
        let app = app(clock: clock, rate: 1_000)
        let storm = Task { await app.runStorm() }
        for _ in 0..<500 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .milliseconds(10))
        }
        await storm.value
        #expect(app.stream.statistics.added == 5_000)
    }
}

/// A clock on which reading the time costs time: each reading of `now` moves the manual clock on by
/// `costPerReading`, as a machine busy adding errors would between two readings.
struct SlowMachineClock: Clock {
    let clock: ManualClock
    let costPerReading: Duration

    var now: ManualClock.Instant {
        clock.advance(by: costPerReading)
        return clock.now
    }

    var minimumResolution: Duration { clock.minimumResolution }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration? = nil) async throws {
        try await clock.sleep(until: deadline, tolerance: tolerance)
    }
}
