import Synchronization

/// Slows a client address that keeps sending a wrong (or no) `sentry_key`: past ``threshold`` refusals within
/// ``window`` of its first, its further wrong keys are answered `429` with `Retry-After` (which Sentry's SDKs obey,
/// unlike a `401`) until the window ends. A right key from the same address is never slowed, so one misconfigured
/// app does not silence the others on its host.
///
/// At most ``maximumAddresses`` addresses are remembered; when full, the one whose window started first gives way.
///
/// ```swift
/// let throttle = SentryKeyThrottle(clock: ContinuousClock())
/// if let seconds = throttle.wrongKey(from: "10.0.0.7") { /* answer 429, Retry-After: seconds */ }
/// ```
final class SentryKeyThrottle: Sendable {
    /// Wrong keys answered `401` from one address within a window before it is answered `429`.
    let threshold: Int
    /// How long a window lasts, from an address's first wrong key.
    let window: Duration
    /// Addresses remembered at once.
    static let maximumAddresses = 1_024

    private struct Address {
        var start: Duration
        var wrong: Int
    }

    private let addresses = Mutex<[String: Address]>([:])
    /// The clock's time since the throttle was made.
    private let now: @Sendable () -> Duration

    /// A throttle on `clock` (a `ManualClock` in tests).
    init<C: Clock<Duration>>(clock: C, threshold: Int = 20, window: Duration = .seconds(10)) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        self.threshold = threshold
        self.window = window
    }

    /// Counts a wrong key from `host`: `nil` to answer `401`, else the whole seconds (at least 1) to put in a
    /// `429`'s `Retry-After`.
    func wrongKey(from host: String) -> Int? {
        let now = now()
        let window = window
        let threshold = threshold
        return addresses.withLock { addresses -> Int? in
            var address = addresses[host] ?? Address(start: now, wrong: 0)
            if now - address.start >= window { address = Address(start: now, wrong: 0) }
            address.wrong += 1
            if addresses[host] == nil, addresses.count >= Self.maximumAddresses,
                let oldest = addresses.min(by: { $0.value.start < $1.value.start })?.key
            {
                addresses[oldest] = nil
            }
            addresses[host] = address
            guard address.wrong > threshold else { return nil }
            let left = address.start + window - now
            let (seconds, attoseconds) = left.components
            return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }
    }
}
