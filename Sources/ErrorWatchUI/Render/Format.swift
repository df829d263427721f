import ErrorStreaming
import Foundation

/// Small, allocation-light formatters for the panes. Deterministic: UTC, no locale.
public enum Format {
    /// `"14:03:07"`, UTC: the second the time is in, never the next one (a fraction is cut, not rounded), at any
    /// year; `"--:--:--"` for a date too far away to have one.
    public static func clock(_ date: Date) -> String {
        guard let (second, _) = CivilDate.parts(of: date) else { return "--:--:--" }
        return clock(second: second)
    }

    /// The time of day of `second` (seconds since 1970, negative before).
    static func clock(second: Int64) -> String {
        let day = Int(((second % 86_400) + 86_400) % 86_400)
        // `hh:mm:ss` from its digits' bytes: each Logs row draws one.
        return String(unsafeUninitializedCapacity: 8) { bytes in
            func digits(_ value: Int, at index: Int) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value / 10)
                bytes[index + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            digits(day / 3600, at: 0)
            digits(day / 60 % 60, at: 3)
            digits(day % 60, at: 6)
            bytes[2] = UInt8(ascii: ":")
            bytes[5] = UInt8(ascii: ":")
            return 8
        }
    }

    /// `"3s"`, `"2m"`, `"5h"`, `"3d"`: the largest whole unit; `"now"` under a second, negatives clamp to it.
    public static func age(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.down))
        if s < 1 { return "now" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86_400 { return "\(s / 3600)h" }
        return "\(s / 86_400)d"
    }

    /// `"00:12:34"`, or `"2d 03:04:05"` past a day.
    public static func uptime(_ seconds: TimeInterval) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        let clock = pad2(s / 3600 % 24) + ":" + pad2(s / 60 % 60) + ":" + pad2(s % 60)
        return s >= 86_400 ? "\(s / 86_400)d " + clock : clock
    }

    /// `"1,284"`.
    public static func count(_ value: some BinaryInteger) -> String {
        guard let magnitude = UInt64(exactly: value.magnitude) else {
            // Past 64 bits: the last three digits after the rest, grouped alike (the rest keeps the sign, and is
            // not zero).
            let (rest, last) = value.quotientAndRemainder(dividingBy: 1000)
            let three = String(last.magnitude)
            return count(rest) + "," + String(repeating: "0", count: 3 - three.utf8.count) + three
        }
        return grouped(magnitude, negative: value < 0)
    }

    /// `magnitude` in decimal, its digits grouped in threes by commas, after a `-` when `negative`: written from
    /// the last digit back into 27 bytes on the stack (20 digits, 6 commas and a sign), so that no text is made but
    /// the result (every pane shows counts, every frame).
    private static func grouped(_ magnitude: UInt64, negative: Bool) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { bytes in
            var at = bytes.count
            var rest = magnitude
            var digits = 0
            repeat {
                if digits > 0, digits % 3 == 0 {
                    at -= 1
                    bytes[at] = UInt8(ascii: ",")
                }
                let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
                at -= 1
                bytes[at] = UInt8(ascii: "0") + UInt8(digit)
                digits += 1
                rest = quotient
            } while rest > 0
            if negative {
                at -= 1
                bytes[at] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[at...]), as: UTF8.self)
        }
    }

    /// `"850µs"`, `"120ms"`, `"1.25s"`.
    public static func duration(_ duration: Duration) -> String {
        let micros = duration.wholeMicroseconds
        if micros < 1000 { return "\(micros)µs" }
        if micros < 1_000_000 { return "\(micros / 1000)ms" }
        let hundredths = micros / 10_000
        return "\(hundredths / 100)." + pad2(Int(hundredths % 100)) + "s"
    }

    /// `"2026-11-22 09:00:03.250 UTC"`: an absolute time, to the millisecond (cut, not rounded, so `.9999` stays
    /// in its second). Years have four digits at least: `0001-01-01`, `9999-12-31`, `-0044-03-15` before year 0.
    public static func timestamp(_ date: Date) -> String {
        guard let (second, fraction) = CivilDate.parts(of: date) else { return "(out of range)" }
        let millis = min(999, Int(fraction * 1000))
        let days = second >= 0 ? second / 86_400 : (second - 86_399) / 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let millisText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return year4(year) + "-" + pad2(Int(month)) + "-" + pad2(Int(day)) + " " + clock(second: second) + "."
            + millisText + " UTC"
    }

    /// `year` with at least four digits, and its sign before year 0.
    static func year4(_ year: Int64) -> String {
        var digits = String(year.magnitude)
        while digits.count < 4 { digits = "0" + digits }
        return year < 0 ? "-" + digits : digits
    }

    /// `"3s ago"`, `"2m ago"`, `"in 4s"` (a clock ahead of ours), `"just now"`.
    public static func relative(_ seconds: TimeInterval) -> String {
        if seconds > -1, seconds < 1 { return "just now" }
        return seconds >= 0 ? age(seconds) + " ago" : "in " + age(-seconds)
    }

    /// `"−1.250s"`, `"+0.003s"`: an offset from a moment, in seconds with milliseconds.
    public static func offset(_ seconds: TimeInterval) -> String {
        let sign = seconds < 0 ? "-" : "+"
        return sign + fixed(abs(seconds), 3) + "s"
    }

    /// A number for a narrow column: `"1,284"` for whole numbers, `"3.25"`, `"12.5"`, `"1.2M"`, `"3.4G"`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let magnitude = abs(value)
        let sign = value < 0 ? "-" : ""
        // Beyond a quadrillion a producer's number is shown by its power of ten, never converted to an integer.
        if magnitude >= 1e15 {
            return sign + fixed(magnitude / pow10(magnitude), 2) + "e" + String(exponent(magnitude))
        }
        if magnitude >= 1e12 { return sign + fixed(magnitude / 1e12, 1) + "T" }
        if magnitude >= 1e9 { return sign + fixed(magnitude / 1e9, 1) + "G" }
        if magnitude >= 1e6 { return sign + fixed(magnitude / 1e6, 1) + "M" }
        if magnitude.rounded() == magnitude { return sign + count(Int64(magnitude)) }
        if magnitude >= 100 { return sign + count(Int64(magnitude.rounded())) }
        return sign + fixed(magnitude, magnitude >= 10 ? 1 : 2)
    }

    /// A value in its unit: durations (`ns`, `us`, `µs`, `ms`, `s`) as ``duration(_:)``, bytes (`By`) as `KiB`/`MiB`,
    /// dimensionless (`1` or none) as a plain ``number(_:)``, anything else as the number and the unit.
    public static func measurement(_ value: Double, unit: String?) -> String {
        let seconds: Double? =
            switch unit {
            case "ns": value / 1e9
            case "us", "µs": value / 1e6
            case "ms": value / 1e3
            case "s": value
            default: nil
            }
        if let seconds, seconds.isFinite, seconds >= 0, seconds < 1e9 {
            return duration(.nanoseconds(Int64((seconds * 1e9).rounded())))
        }
        switch unit {
        case "By":
            let units = ["B", "KiB", "MiB", "GiB", "TiB"]
            var scaled = value
            var index = 0
            while abs(scaled) >= 1024, index < units.count - 1 {
                scaled /= 1024
                index += 1
            }
            return number(scaled) + units[index]
        case nil, "", "1": return number(value)
        case let unit?: return number(value) + " " + unit
        }
    }

    /// The power of ten of `magnitude` (at least 1): 15 for 2.5e15.
    static func exponent(_ magnitude: Double) -> Int {
        var exponent = 0
        var rest = magnitude
        while rest >= 10, exponent < 400 {
            rest /= 10
            exponent += 1
        }
        return exponent
    }

    static func pow10(_ magnitude: Double) -> Double {
        var result = 1.0
        for _ in 0..<exponent(magnitude) { result *= 10 }
        return result
    }

    /// `value` with `digits` decimals, rounded half away from zero; no locale. Values too large for that are
    /// written by their power of ten instead of trapping.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard value.isFinite, abs(value) * scale < 9e18 else {
            return value.isFinite ? (value < 0 ? "-" : "") + "1e" + String(exponent(abs(value))) : "∞"
        }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return (value < 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + fraction : "")
    }

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
