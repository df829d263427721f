#if canImport(Glibc)
    import Glibc  // pow
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long to wait before each retry: exponential growth, a ceiling, and random jitter.
///
/// The delay after failed attempt `n` (1-based) is `initial × multiplierⁿ⁻¹`, capped at `maximum`, then
/// scaled by jitter: with `jitter` `j` and a random `r` in `0..<1`, the delay is multiplied by `1 - j + j·r`.
/// So `jitter: 0` waits exactly, `jitter: 1` is "full jitter" (anywhere from 0 to the full delay), and the
/// default `0.2` waits between 80 % and 100 % of it, which spreads a crowd of clients apart.
///
/// ```swift
/// let backoff = Backoff.exponential(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1), jitter: 0)
/// backoff.delay(afterAttempt: 1, random: 0)   // 100 ms
/// backoff.delay(afterAttempt: 3, random: 0)   // 400 ms
/// ```
public struct Backoff: Sendable, Hashable, CustomStringConvertible {
    /// The delay after the first failed attempt.
    public var initial: Duration
    /// The factor between consecutive delays (1 for a constant delay).
    public var multiplier: Double
    /// The longest delay, before jitter.
    public var maximum: Duration
    /// How much of each delay is random, from 0 (none) to 1 (all of it).
    public var jitter: Double

    /// Creates a backoff; `multiplier` is at least 1 and `jitter` is clamped to `0...1`.
    public init(initial: Duration, multiplier: Double, maximum: Duration, jitter: Double) {
        self.initial = max(initial, .zero)
        self.multiplier = max(multiplier, 1)
        self.maximum = max(maximum, self.initial)
        self.jitter = min(max(jitter, 0), 1)
    }

    /// Exponential backoff: 200 ms, 400 ms, 800 ms… up to 30 s, with 20 % jitter by default.
    public static func exponential(
        initial: Duration = .milliseconds(200),
        multiplier: Double = 2,
        maximum: Duration = .seconds(30),
        jitter: Double = 0.2
    ) -> Backoff {
        Backoff(initial: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
    }

    /// The same delay every time, without jitter unless asked.
    public static func constant(_ delay: Duration, jitter: Double = 0) -> Backoff {
        Backoff(initial: delay, multiplier: 1, maximum: delay, jitter: jitter)
    }

    /// No delay at all.
    public static let none = Backoff.constant(.zero)

    /// The delay after failed attempt `attempt` (1-based), given a random number `random` in `0..<1`.
    ///
    /// Computed in whole nanoseconds, so equal inputs give exactly equal durations.
    public func delay(afterAttempt attempt: Int, random: Double) -> Duration {
        let initialNanos = initial.wholeNanoseconds
        let maximumNanos = maximum.wholeNanoseconds
        let growth = pow(multiplier, Double(max(attempt, 1) - 1))
        let base = min(Double(initialNanos) * growth, Double(maximumNanos))
        let r = min(max(random, 0), 1)
        let scaled = base * (1 - jitter + jitter * r)
        return .nanoseconds(Int64(scaled.rounded()))
    }

    /// For example `"backoff(0.2 seconds ×2.0 ≤ 30.0 seconds, jitter 0.2)"`.
    public var description: String {
        "backoff(\(initial) ×\(multiplier) ≤ \(maximum), jitter \(jitter))"
    }
}
