import ErrorWatchWire
import ErrorStreaming

/// Log levels as the common loggers write them, mapped onto ``ErrorSeverity`` (which has no `trace`: it reads as
/// `debug`).
enum LogLevel {
    /// A level word in any case: `ERROR`, `warn`, `Information`, `crit`, `E`…; `nil` for anything else.
    static func severity(word: some StringProtocol) -> ErrorSeverity? {
        let count = word.utf8.count
        guard count > 0, count <= 13 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for byte in word.utf8 {
            guard byte < 0x80 else { return nil }
            bytes.append(byte >= 65 && byte <= 90 ? byte | 0x20 : byte)
        }
        switch String(decoding: bytes, as: UTF8.self) {
        case "trace", "trc", "debug", "dbg", "dbug", "debu", "verbose", "verb", "vrb", "fine", "finer", "finest",
            "t", "d", "v":
            return .debug
        case "info", "inf", "information", "informational", "i", "config":
            return .info
        case "notice", "note", "n":
            return .notice
        case "warn", "warning", "wrn", "w":
            return .warning
        case "error", "err", "eror", "erro", "fail", "failure", "e", "severe":
            return .error
        case "fatal", "critical", "crit", "crt", "panic", "dpanic", "alert", "emerg", "emergency", "ftl", "f", "c":
            return .critical
        default:
            return nil
        }
    }

    /// pino's and bunyan's numbers: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal.
    static func severity(pino level: Double) -> ErrorSeverity {
        switch level {
        case ..<30: .debug
        case ..<40: .info
        case ..<50: .warning
        case ..<60: .error
        default: .critical
        }
    }

    /// Syslog's numbers, as GELF uses them: 0 emergency … 3 error, 4 warning, 5 notice, 6 info, 7 debug.
    static func severity(syslog level: Double) -> ErrorSeverity {
        switch level {
        case ..<3: .critical
        case ..<4: .error
        case ..<5: .warning
        case ..<6: .notice
        case ..<7: .info
        default: .debug
        }
    }

    /// The word a line gave, as an error type when nothing better is known: `Error`, `Fatal`, `Critical`.
    static func typeName(forWord word: some StringProtocol, severity: ErrorSeverity) -> String {
        switch word.lowercased() {
        case "fatal", "ftl", "f": "Fatal"
        case "panic", "dpanic": "Panic"
        case "critical", "crit", "crt", "c": "Critical"
        case "alert": "Alert"
        case "emerg", "emergency": "Emergency"
        case "severe": "Severe"
        default: severity >= .critical ? "Critical" : "Error"
        }
    }
}
