import Foundation

/// Small, allocation-light formatters for the panes. Deterministic: UTC, no locale.
public enum Format {
    /// `"14:03:07"`, UTC.
    public static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return pad2(day / 3600) + ":" + pad2(day / 60 % 60) + ":" + pad2(day % 60)
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
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `"850µs"`, `"120ms"`, `"1.25s"`.
    public static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        if micros < 1000 { return "\(micros)µs" }
        if micros < 1_000_000 { return "\(micros / 1000)ms" }
        let hundredths = micros / 10_000
        return "\(hundredths / 100)." + pad2(Int(hundredths % 100)) + "s"
    }

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
