import ErrorStreaming
import ErrorStreamingTesting
import Synchronization
import Testing

/// Counts attempts and fails until a given attempt.
final class FlakyOperation: Sendable {
    private let attempts = Mutex(0)
    let succeedsOnAttempt: Int

    init(succeedsOnAttempt: Int) { self.succeedsOnAttempt = succeedsOnAttempt }

    var count: Int { attempts.withLock { $0 } }

    func run() throws -> String {
        let attempt = attempts.withLock { count in
            count += 1
            return count
        }
        guard attempt >= succeedsOnAttempt else { throw BackendOutage.serverUnavailable }
        return "ok on \(attempt)"
    }
}

struct RetryTests {
    let clock = ManualClock()
    let exact = Backoff.exponential(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(10), jitter: 0)

    @Test func waitsExponentiallyBetweenAttemptsAndReportsEachFailure() async throws {
        let stream = ErrorStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        let flaky = FlakyOperation(succeedsOnAttempt: 4)
        let task = Task { [clock, exact] in
            try await retry(
                maxAttempts: 4, backoff: exact, clock: clock, reportingTo: stream,
                context: ErrorContext(source: "sync")
            ) { try flaky.run() }
        }
        var waits: [Duration] = []
        for _ in 1...3 {
            await clock.waitForSleepers(count: 1)
            let deadline = try #require(clock.pendingDeadlines.first)
            waits.append(clock.now.duration(to: deadline))
            clock.advance(to: deadline)
        }
        #expect(try await task.value == "ok on 4")
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        stream.finish()
        var reported: [String] = []
        for await event in events { reported.append("\(event.source)#\(event.context.attempt ?? 0)") }
        #expect(reported == ["sync#1", "sync#2", "sync#3"])
    }

    @Test func jitterComesFromTheInjectedSource() async throws {
        let flaky = FlakyOperation(succeedsOnAttempt: 2)
        let jittery = Backoff.exponential(initial: .milliseconds(100), jitter: 0.5)
        let task = Task { [clock] in
            try await retry(maxAttempts: 2, backoff: jittery, clock: clock, random: { 0.5 }) { try flaky.run() }
        }
        await clock.waitForSleepers(count: 1)
        // 100 ms × (1 − 0.5 + 0.5 × 0.5) = 75 ms.
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .milliseconds(75))])
        clock.advance(by: .milliseconds(75))
        #expect(try await task.value == "ok on 2")
    }

    @Test func throwsTheLastErrorWhenEveryAttemptFails() async {
        let flaky = FlakyOperation(succeedsOnAttempt: 99)
        let task = Task { [clock, exact] in
            try await retry(maxAttempts: 2, backoff: exact, clock: clock) { try flaky.run() }
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(100))
        await #expect(throws: BackendOutage.serverUnavailable) { try await task.value }
        #expect(flaky.count == 2)
    }

    @Test func shouldRetryFalseStopsAtOnce() async {
        let flaky = FlakyOperation(succeedsOnAttempt: 3)
        await #expect(throws: BackendOutage.serverUnavailable) {
            try await retry(
                maxAttempts: 5, backoff: exact, clock: clock, shouldRetry: { _ in false },
                operation: { try flaky.run() })
        }
        #expect(flaky.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellationDuringTheWaitStopsTheRetry() async {
        let stream = ErrorStream()
        let flaky = FlakyOperation(succeedsOnAttempt: 3)
        let task = Task { [clock, exact] in
            try await retry(maxAttempts: 3, backoff: exact, clock: clock, reportingTo: stream) { try flaky.run() }
        }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(flaky.count == 1)
        #expect(stream.statistics.added == 1)
    }

    @Test func cancellationThrownByTheOperationIsNotRetriedOrReported() async {
        let stream = ErrorStream()
        let attempts = Mutex(0)
        await #expect(throws: CancellationError.self) {
            try await retry(maxAttempts: 3, backoff: exact, clock: clock, reportingTo: stream) {
                attempts.withLock { $0 += 1 }
                throw CancellationError()
            }
        }
        #expect(attempts.withLock { $0 } == 1)
        #expect(stream.statistics.added == 0)
    }

    @Test func retryAsAReactionAttemptsOnceUnlessToldToRetry() async {
        let once = FlakyOperation(succeedsOnAttempt: 2)
        await #expect(throws: BackendOutage.serverUnavailable) {
            try await retry(as: .alert, clock: clock) { try once.run() }
        }
        #expect(once.count == 1)
        let twice = FlakyOperation(succeedsOnAttempt: 2)
        let value = try? await retry(as: .retry(maxAttempts: 2, backoff: .none), clock: clock) { try twice.run() }
        #expect(value == "ok on 2")
    }

    @Test func backoffIsCappedAtItsMaximum() {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: 3, maximum: .seconds(5), jitter: 0)
        #expect(
            (1...4).map { backoff.delay(afterAttempt: $0, random: 0) } == [
                .seconds(1), .seconds(3), .seconds(5), .seconds(5),
            ])
        let full = Backoff.exponential(initial: .seconds(1), jitter: 1)
        #expect(full.delay(afterAttempt: 1, random: 0) == .zero)
        #expect(full.delay(afterAttempt: 1, random: 0.25) == .milliseconds(250))
    }
}

/// Main-actor state that is not `Sendable`, as a view model would hold.
@MainActor final class SyncScreen {
    var attempts = 0
    var status = "idle"

    func sync() throws -> String {
        attempts += 1
        if attempts < 2 { throw BackendOutage.timedOut }
        return "synced"
    }
}

@MainActor
struct MainActorRetryTests {
    @Test func retryRunsTheOperationOnTheCallersActor() async throws {
        let screen = SyncScreen()
        let value = try await retry(maxAttempts: 2, backoff: .none, clock: ManualClock()) {
            MainActor.assertIsolated()
            return try screen.sync()
        }
        screen.status = value
        #expect(screen.status == "synced")
        #expect(screen.attempts == 2)
    }

    @Test func handlerDoReturnsNonSendableValuesOnTheCallersActor() async {
        let screen = SyncScreen()
        let node = ErrorHandler().catch { _ in }
        let first: String? = await node.do {
            await Task.yield()
            return try screen.sync()
        }
        let second: String? = await node.do {
            await Task.yield()
            return try screen.sync()
        }
        #expect(first == nil)
        #expect(second == "synced")
    }
}
