import ErrorWatchWire
import ErrorStreaming

/// Log levels as the common loggers write them, mapped onto ``ErrorSeverity`` (which has no `trace`: it reads as
/// `debug`).
enum LogLevel {
    /// A level word in any case: `ERROR`, `warn`, `Information`, `crit`, `E`…; `nil` for anything else.
    static func severity(word: some StringProtocol) -> ErrorSeverity? {
        let count = word.utf8.count
        guard count > 0, count <= 13, let first = word.utf8.first, Self.mayStartLevelWord(first) else { return nil }
        // Lower-cased into a small string (at most 15 bytes are stored inline: no allocation).
        let lowered: String? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { buffer in
            var used = 0
            for byte in word.utf8 {
                guard byte < 0x80 else { return nil }
                buffer[used] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                used += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<used]), as: UTF8.self)
        }
        guard let lowered else { return nil }
        return Self.words[lowered]
    }

    /// The level words, lower-cased. A dictionary rather than a `switch`: a `switch` over strings compares the
    /// word with each case in turn, and the reader asks about several words of every plain-text line.
    private static let words: [String: ErrorSeverity] = {
        let groups: [(ErrorSeverity, [String])] = [
            (
                .debug,
                [
                    "trace", "trc", "debug", "dbg", "dbug", "debu", "verbose", "verb", "vrb", "fine", "finer", "finest",
                    "t", "d", "v",
                ]
            ),
            (.info, ["info", "inf", "information", "informational", "i", "config"]),
            (.notice, ["notice", "note", "n"]),
            (.warning, ["warn", "warning", "wrn", "w"]),
            (.error, ["error", "err", "eror", "erro", "fail", "failure", "e", "severe"]),
            (
                .critical,
                ["fatal", "critical", "crit", "crt", "panic", "dpanic", "alert", "emerg", "emergency", "ftl", "f", "c"]
            ),
        ]
        var words: [String: ErrorSeverity] = [:]
        for (severity, group) in groups { for word in group { words[word] = severity } }
        return words
    }()

    /// The first letters of the level words, one bit per letter `a`–`z`.
    private static let firstLetters: UInt32 = words.keys.reduce(0) { mask, word in
        mask | 1 << UInt32(word.utf8.first! - UInt8(ascii: "a"))
    }

    /// Whether a word starting with `byte` may be a level word: a word starting otherwise is not one.
    @inline(__always)
    private static func mayStartLevelWord(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        guard letter >= UInt8(ascii: "a"), letter <= UInt8(ascii: "z") else { return false }
        return firstLetters & 1 << UInt32(letter - UInt8(ascii: "a")) != 0
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
