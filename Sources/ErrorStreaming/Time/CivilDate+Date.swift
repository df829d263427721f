#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date, without the rest of Foundation (which ErrorStreaming does not link)
#else
    import Foundation
#endif

/// Whole seconds and their fraction in and out of `Date`, without a fraction ever carrying into the next second.
///
/// A `Date` is a `Double` of seconds since 2001. Near year 10000 it holds a time to 30 µs only, so
/// `23:59:59.999999999` added up as `second + fraction` rounds to the next second, and the clock shows
/// `00:00:00` of the next day (of year 10000); going through `timeIntervalSince1970` adds a second rounding.
/// These two work in seconds since 2001 directly and keep a time in the second the producer sent.
///
/// ```swift
/// let date = CivilDate.date(second: 253_402_300_799, fraction: 0.999_999_999)   // 9999-12-31T23:59:59.99997Z
/// CivilDate.parts(of: date)?.second                                            // 253_402_300_799
/// ```
extension CivilDate {
    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    static let referenceOffset: Int64 = 978_307_200

    /// The date `fraction` (0 ≤ fraction < 1) after second `second` since 1970: when a `Double` cannot hold that,
    /// the last instant it can hold before the next second, never the next second itself.
    package static func date(second: Int64, fraction: Double) -> Date {
        let reference = second - referenceOffset
        let next = Double(reference + 1)
        let value = Double(reference) + min(max(0, fraction), 1)
        return Date(timeIntervalSinceReferenceDate: value < next ? value : next.nextDown)
    }

    /// The second since 1970 that `date` is in (rounded down, so before 1970 too) and the fraction of it that has
    /// passed; `nil` for a date too far from now for 64-bit seconds (or not finite).
    package static func parts(of date: Date) -> (second: Int64, fraction: Double)? {
        let reference = date.timeIntervalSinceReferenceDate
        guard reference.isFinite, abs(reference) < 1e17 else { return nil }
        let whole = reference.rounded(.down)
        return (Int64(whole) + referenceOffset, reference - whole)
    }
}
