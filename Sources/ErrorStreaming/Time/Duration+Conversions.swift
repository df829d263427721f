/// `Duration` in the units C and Foundation APIs take: nanoseconds for swift-metrics' timers, milliseconds for
/// `poll(2)`, seconds as a `Double` for rates. The one place in the house that takes a duration apart through
/// `components`; code that imports NIO converts with `TimeAmount(duration)` instead.
///
/// Package-internal: not part of the library an app imports, so an app's own extensions on `Duration` never clash.
///
/// ```swift
/// poll(&fds, 1, Int32(clamping: timeout.wholeMilliseconds()))
/// timer.recordNanoseconds(start.duration(to: end).wholeNanoseconds)
/// ```
extension Duration {
    /// The duration in whole nanoseconds, truncated toward zero, clamped to `Int64`.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return Self.clamped(seconds, times: 1_000_000_000, plus: attoseconds / 1_000_000_000)
    }

    /// The duration in whole microseconds, truncated toward zero, clamped to `Int64` (recordings' offsets, the
    /// panes' durations).
    package var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        return Self.clamped(seconds, times: 1_000_000, plus: attoseconds / 1_000_000_000_000)
    }

    /// The duration in whole milliseconds, clamped to `Int64`: truncated toward zero, or with `roundingUp`, any
    /// started millisecond counted (so a wait of 0.1 ms is not a busy poll of 0 ms).
    ///
    /// - Parameter roundingUp: Whether a fraction of a millisecond counts as a whole one.
    package func wholeMilliseconds(roundingUp: Bool = false) -> Int64 {
        let (seconds, attoseconds) = components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let fraction = roundingUp ? (attoseconds + perMillisecond - 1) / perMillisecond : attoseconds / perMillisecond
        return Self.clamped(seconds, times: 1000, plus: fraction)
    }

    /// The duration in seconds, as Foundation's `TimeInterval` counts them.
    package var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `seconds × scale + fraction`, saturating at `Int64`'s bounds instead of trapping.
    private static func clamped(_ seconds: Int64, times scale: Int64, plus fraction: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: scale)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, carried) = scaled.addingReportingOverflow(fraction)
        if carried { return fraction < 0 ? .min : .max }
        return sum
    }
}
