import Synchronization

/// A `Clock` whose time stands still until someone advances it: the test double for time, and the clock of
/// headless renders and replays.
///
/// Production code because the dashboard's headless renderer and simulations run on it; apps' tests keep
/// `import ErrorStreamingTesting`, which re-exports it.
///
/// Like NIO's `EmbeddedEventLoop`, it makes time-dependent code reproducible. Code under test sleeps on the
/// clock as usual; the test waits until the expected sleepers are registered, then moves time forward, which
/// wakes every sleeper whose deadline has passed. No real time elapses, so there are no sleeps in tests.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .seconds(5))   // the task wakes up
/// try await task.value
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time elapsed since the clock was created.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The time elapsed since the clock's zero.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's zero.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`, negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, for example `"2.5 seconds"`.
        public var description: String { offset.description }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps that have an id but have not registered yet: `true` once cancelled in that gap.
        var unregistered: [UInt64: Bool] = [:]
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Creates a clock whose ``now`` is zero.
    public init() {}

    /// The current instant; changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: one nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are sleeping on the clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the current sleepers, earliest first.
    public var pendingDeadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends until the clock is advanced to `deadline` or beyond; throws `CancellationError` when cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            s.unregistered[s.nextID] = false
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wake, cancel, wait }
                var waitersToResume: [CheckedContinuation<Void, Never>] = []
                let outcome: Outcome = state.withLock { s in
                    if s.unregistered.removeValue(forKey: id) == true { return .cancel }
                    if deadline <= s.now { return .wake }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let count = s.sleepers.count
                    waitersToResume = s.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
                    s.sleeperWaiters.removeAll { $0.count <= count }
                    return .wait
                }
                // Resumed outside the lock.
                for waiter in waitersToResume { waiter.resume() }
                switch outcome {
                case .wake: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { s in
                if let sleeper = s.sleepers.removeValue(forKey: id) { return sleeper }
                // Cancelled before registering: the registration sees the mark and throws at once.
                // After a normal wake-up the id is in neither table, and there is nothing to do.
                if s.unregistered[id] != nil { s.unregistered[id] = true }
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Suspends until at least `count` tasks are sleeping on the clock.
    ///
    /// Use it instead of a real sleep to know that the code under test has reached its `sleep`.
    public func waitForSleepers(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s in
                if s.sleepers.count >= count { return true }
                s.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has been reached.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now.advanced(by: duration) }
        advance(to: target)
    }

    /// Moves time forward to `instant` (never backwards) and wakes every sleeper whose deadline has been reached.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { s in
            if instant > s.now { s.now = instant }
            let now = s.now
            // Earliest deadline first; among equal deadlines, the first to fall asleep first, so that wake-up
            // order never depends on dictionary order (headless runs must replay identically).
            let dueIDs = s.sleepers.filter { $0.value.deadline <= now }.sorted {
                ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
            }
            return dueIDs.compactMap { s.sleepers.removeValue(forKey: $0.key) }
        }
        // Resumed outside the lock, earliest deadline first.
        for sleeper in due { sleeper.continuation.resume() }
    }
}
