import ErrorStreaming

/// The one scanner for RFC 3339 and its ISO 8601 relatives, in two modes: strict for the wire format's `time`
/// (exactly RFC 3339), lenient for the timestamps log lines start with (ErrorWatchIngest's `LogTimestamp`).
///
/// Both modes read `YYYY-MM-DD`, `T`, `t` or a space, `HH:MM:SS`, refusing a date that does not exist
/// (`2026-02-31`), an hour of 24, a minute of 60 or a second past 60. They differ in what may follow:
///
/// | | strict | lenient |
/// | --- | --- | --- |
/// | date separator | `-` | `-` or `/` (Go's `log`), the same twice |
/// | fraction | `.` and at least one digit | `.` or `,` (Python's `asctime`) when a digit follows; else not read |
/// | zone | required: `Z`, `z` or `±HH:MM` | optional: `Z`, `z`, `±HH:MM`, `±HHMM` or `±HH`; none means local |
///
/// The scanner stops after the zone and says where; what may follow is the caller's to judge (``parse(_:)``
/// wants nothing, a log line its message).
extension RFC3339 {
    /// How much of ISO 8601 a scan accepts.
    package enum ScanMode: Sendable {
        /// Exactly RFC 3339: the wire format's `time`.
        case strict
        /// RFC 3339 and the relatives log lines use (the table at the top of this file).
        case lenient
    }

    /// A timestamp as scanned, before any time zone is applied.
    package struct Scanned: Sendable, Hashable {
        /// The date and time of day as written, in seconds since 1970 as if they were UTC.
        package var wallSeconds: Int64
        /// The fraction of a second, in `0..<1`.
        package var fraction: Double
        /// The written offset from UTC in seconds (east positive); `nil` when no zone was written (lenient only).
        package var offset: Int64?
        /// The index just after the timestamp.
        package var end: Int
    }

    /// Scans a timestamp at `start` of `bytes`; `nil` when none is there in `mode`.
    ///
    /// ```swift
    /// RFC3339.scan(bytes, from: 0, mode: .lenient)   // "2026-11-23 10:00:00,123 INFO …": offset nil, end 23
    /// ```
    package static func scan(_ bytes: UnsafeRawBufferPointer, from start: Int, mode: ScanMode) -> Scanned? {
        var index = start
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for position in index..<index + width {
                let byte = bytes[position]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += width
            return value
        }
        func take(_ first: UInt8, _ second: UInt8 = 0, _ third: UInt8 = 0) -> Bool {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            guard byte == first || (second != 0 && byte == second) || (third != 0 && byte == third) else {
                return false
            }
            index += 1
            return true
        }
        guard let year = number(4) else { return nil }
        let separator = index < bytes.count ? bytes[index] : 0
        guard separator == 45 || (mode == .lenient && separator == 47) else { return nil }  // - /
        index += 1
        guard let month = number(2), take(separator), let day = number(2), take(84, 116, 32),  // T t space
            let hour = number(2), take(58), let minute = number(2), take(58), let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        let fractionMark = mode == .strict ? index < bytes.count && bytes[index] == 46 : startsFraction(bytes, index)
        if fractionMark {
            index += 1
            var scale = 0.1
            let digits = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > digits else { return nil }
        }
        let wallSeconds = CivilDate.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        var scanned = Scanned(wallSeconds: wallSeconds, fraction: fraction, offset: nil, end: index)
        guard index < bytes.count else { return mode == .strict ? nil : scanned }
        switch bytes[index] {
        case 90, 122:  // Z z
            index += 1
            scanned.offset = 0
        case 43, 45:  // + -
            let sign: Int64 = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let hours = number(2) else { return mode == .strict ? nil : scanned }
            var minutes: Int64 = 0
            if take(58) {
                guard let value = number(2) else { return nil }
                minutes = value
            } else if mode == .strict {
                return nil
            } else if let value = number(2) {
                minutes = value
            }
            guard hours < 24, minutes < 60 else { return nil }
            scanned.offset = sign * (hours * 3600 + minutes * 60)
        default:
            return mode == .strict ? nil : scanned
        }
        scanned.end = index
        return scanned
    }

    /// Whether a lenient fraction starts at `index`: `.` or `,` followed by a digit.
    private static func startsFraction(_ bytes: UnsafeRawBufferPointer, _ index: Int) -> Bool {
        index + 1 < bytes.count && (bytes[index] == 46 || bytes[index] == 44) && (48...57).contains(bytes[index + 1])
    }
}
