import ErrorWatchWire
import ErrorStreaming
import Foundation
import Synchronization

/// The timestamps log lines start with or carry, read leniently but never into a date that does not exist.
///
/// Reads RFC 3339 and its ISO 8601 relatives: `T` or a space between date and time, a `.` or `,` before the
/// fraction (Python's `asctime`), `Z`, `±HH:MM`, `±HHMM` or `±HH`, or no zone at all, which means the local time
/// zone (as lnav reads such logs). Also `YYYY/MM/DD HH:MM:SS` (Go's `log`) and syslog's `Nov 23 10:00:01`, whose
/// year is the reading's. A day past the month's end, an hour of 24 or an offset of `-99:99` makes it no timestamp.
enum LogTimestamp {
    /// The latest date accepted from an epoch number: 9999-12-31, the largest four-digit year.
    static let latestEpochSeconds = 253_402_300_799.0

    /// A whole string as a timestamp; `nil` when it is not one.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            guard let (date, end) = scanISO(bytes, from: 0), end == bytes.count else { return nil }
            return date
        }
    }

    /// Seconds since 1970 as a date, when finite and between 1970 and 9999.
    static func date(epoch seconds: Double) -> Date? {
        guard seconds.isFinite, seconds >= 0, seconds <= latestEpochSeconds else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// A number since 1970 as a date, its unit told by its size: below 10¹¹ seconds (until the year 5138), below
    /// 10¹⁴ milliseconds, below 10¹⁷ microseconds, else nanoseconds. A small number from a shape that documents
    /// milliseconds is read as milliseconds.
    static func date(epochNumber value: Double, milliseconds: Bool = false) -> Date? {
        guard value.isFinite, value >= 0 else { return nil }
        let seconds: Double
        if value >= 1e17 {
            seconds = value / 1e9
        } else if value >= 1e14 {
            seconds = value / 1e6
        } else if value >= 1e11 || milliseconds {
            seconds = value / 1e3
        } else {
            seconds = value
        }
        return date(epoch: seconds)
    }

    /// A timestamp at `start` of `bytes`: ISO-like or Go's slashed form (``RFC3339``'s lenient scan); the date and
    /// the index after it.
    static func scanISO(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Date, Int)? {
        guard let scanned = RFC3339.scan(bytes, from: start, mode: .lenient) else { return nil }
        let local = scanned.wallSeconds
        // The fraction never carries into the next second (`23:59:59.999999999` stays 23:59:59).
        let date = CivilDate.date(second: local - (scanned.offset ?? localOffset(at: local)), fraction: scanned.fraction)
        return (date, scanned.end)
    }

    /// Syslog's `Mmm dd HH:MM:SS` (day space-padded) at `start`, in `year`, local time.
    static func scanSyslog(_ bytes: UnsafeRawBufferPointer, from start: Int, year: Int64) -> (Date, Int)? {
        guard start + 15 <= bytes.count else { return nil }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 3]), as: UTF8.self)
        guard let monthIndex = months.firstIndex(of: name.lowercased()), bytes[start + 3] == 32 else { return nil }
        func digit(_ at: Int) -> Int64? {
            let byte = bytes[start + at]
            return byte >= 48 && byte <= 57 ? Int64(byte - 48) : nil
        }
        let tens = bytes[start + 4] == 32 ? 0 : digit(4)
        guard let tens, let ones = digit(5), bytes[start + 6] == 32, let h1 = digit(7), let h2 = digit(8),
            bytes[start + 9] == 58, let m1 = digit(10), let m2 = digit(11), bytes[start + 12] == 58,
            let s1 = digit(13), let s2 = digit(14)
        else { return nil }
        let month = Int64(monthIndex + 1)
        let day = tens * 10 + ones
        let hour = h1 * 10 + h2
        let minute = m1 * 10 + m2
        let second = s1 * 10 + s2
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour < 24, minute < 60, second <= 60
        else { return nil }
        let local = CivilDate.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        return (Date(timeIntervalSince1970: Double(local - localOffset(at: local))), start + 15)
    }

    /// The local time zone's offset from UTC, in seconds, near the local time `seconds`: asked of the time zone
    /// once per hour of local time (zone rules change on the hour at the finest), not once per line.
    private static func localOffset(at seconds: Int64) -> Int64 {
        let hour = seconds >= 0 ? seconds / 3600 : (seconds - 3599) / 3600
        if let cached = offsetCache.withLock({ $0.hour == hour ? $0.offset : nil }) { return cached }
        let offset = Int64(TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        offsetCache.withLock { $0 = (hour, offset) }
        return offset
    }

    private static let offsetCache = Mutex<(hour: Int64, offset: Int64)>((.min, 0))
}
