import ErrorStreaming
import Foundation

/// RFC 3339 timestamps without Foundation formatters: fast, allocation-light and the same on every platform.
///
/// Writes UTC with microseconds (`2026-11-22T00:40:00.123456Z`); reads any RFC 3339 timestamp, with or
/// without a fraction, with `Z` or a numeric offset. Its scanner (`RFC3339+Scanning.swift`) also reads log lines'
/// looser timestamps for ErrorWatchIngest, hence `package`.
package enum RFC3339 {
    /// `2026-11-22T00:40:00.123456Z`.
    package static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        write(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the timestamp's 27 bytes to `out` (digits written directly: this runs for every line a forwarder
    /// or a recording writes). A time outside the years 0000–9999 is written as the digits give it; writers check
    /// ``canFormat(_:)`` first.
    static func write(_ date: Date, to out: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var micros = Int64(((interval - Double(seconds)) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            seconds += 1
            micros -= 1_000_000
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            writeFields(year, month, day, secondOfDay, micros, &out)
            return
        }
        // The 27 bytes are laid out in a template and appended with one copy.
        var template: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &template) { bytes in
            func put(_ value: Int64, at offset: Int, width: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            put(year, at: 0, width: 4)
            bytes[4] = UInt8(ascii: "-")
            put(month, at: 5, width: 2)
            bytes[7] = UInt8(ascii: "-")
            put(day, at: 8, width: 2)
            bytes[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, at: 11, width: 2)
            bytes[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, at: 14, width: 2)
            bytes[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, at: 17, width: 2)
            bytes[19] = UInt8(ascii: ".")
            put(micros, at: 20, width: 6)
            bytes[26] = UInt8(ascii: "Z")
            out.append(contentsOf: bytes.prefix(27))
        }
    }

    /// The timestamp field by field, for a year outside 0000–9999 (which has no RFC 3339 form and is written as
    /// its digits give it).
    private static func writeFields(
        _ year: Int64, _ month: Int64, _ day: Int64, _ secondOfDay: Int64, _ micros: Int64, _ out: inout [UInt8]
    ) {
        append(year, width: 4, &out)
        out.append(UInt8(ascii: "-"))
        append(month, width: 2, &out)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2, &out)
        out.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2, &out)
        out.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, &out)
        out.append(UInt8(ascii: "."))
        append(micros, width: 6, &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `nil` for anything else.
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// ``parse(_:)-(String)`` on the bytes of the text.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard let scanned = scan(bytes, from: 0, mode: .strict), scanned.end == bytes.count else { return nil }
        let seconds = scanned.wallSeconds - (scanned.offset ?? 0)
        // An offset can carry a time out of the four-digit years (`0000-01-01T00:00:00+00:01` is in year -1,
        // `9999-12-31T23:59:60Z` in 10000); UTC has no RFC 3339 form for it, so ``format(_:)`` could not write it
        // back readably (a recording of it would not replay). Such a time is malformed.
        guard seconds >= earliestSecond, seconds < endSecond else { return nil }
        // To the microsecond, and never rounded up into the next second: `23:59:59.9999999` is still 23:59:59 (it
        // was 00:00:00 of the next day). Near year 10000 a Double holds a time to 30 µs only; CivilDate keeps it in
        // its second all the same.
        let micros = min((scanned.fraction * 1_000_000).rounded(), 999_999)
        return CivilDate.date(second: seconds, fraction: micros / 1_000_000)
    }

    /// Whether ``format(_:)`` writes `date` as a time ``parse(_:)`` reads back: years 0000 to 9999 in UTC.
    static func canFormat(_ date: Date) -> Bool {
        let interval = date.timeIntervalSince1970
        return interval >= Double(earliestSecond) && interval < Double(endSecond)
    }

    /// `0000-01-01T00:00:00Z`, the earliest time with an RFC 3339 form in UTC, in seconds since 1970.
    private static let earliestSecond = CivilDate.days(fromCivil: 0, 1, 1) * 86_400
    /// `10000-01-01T00:00:00Z`: this and later times would be written with a five-digit year.
    private static let endSecond = CivilDate.days(fromCivil: 10_000, 1, 1) * 86_400

    /// `value` in decimal, zero-padded to `width` digits; a negative value as its sign and digits.
    private static func append(_ value: Int64, width: Int, _ out: inout [UInt8]) {
        guard value >= 0 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        if digits < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        WireEvent.writeInteger(UInt64(value), &out)
    }
}
