/// A type-erased clock measured in `Duration`, so code can run on `ContinuousClock` live and on a manual clock in
/// tests or headless runs while passing one concrete `Clock` to generic APIs such as `retry`.
///
/// ```swift
/// let live = ErasedClock(ContinuousClock())
/// try await live.sleep(for: .milliseconds(200))
/// ```
public struct ErasedClock: Clock, Sendable {
    /// A point in time, as the offset from when the clock was erased.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock was erased.
        public var offset: Duration
        /// The instant `offset` after the clock was erased.
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// The wrapped clock's resolution.
    public let minimumResolution: Duration

    /// Erases `clock`; instants count from the moment of erasure.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleeper = { duration in try await clock.sleep(for: duration) }
        minimumResolution = clock.minimumResolution
    }

    public var now: Instant { Instant(offset: elapsed()) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let remaining = now.duration(to: deadline)
        if remaining <= .zero {
            try Task.checkCancellation()
            return
        }
        try await sleeper(remaining)
    }
}
