import ErrorWatchWire
import ErrorStreaming
import Foundation

/// Plain-text and logfmt lines: a timestamp and a level word when present, the rest as the message.
///
/// Timestamps: ISO-like (`2026-11-23T10:00:01.123Z`, `2026-11-23 10:00:01,123`), Go's `2026/11/23 10:00:01`,
/// syslog's `Nov 23 10:00:01`, each optionally in brackets, and klog's `E1123 10:00:01.123456`. Level words
/// (`ERROR`, `warn`, `[error]`, `<E>`, `level=error`, Python's `ERROR:root:message`) are looked for in the first
/// four words; a lower-case bare word counts only as the first word, so "connection error" is not a level.
enum TextLine {
    /// The record of one plain-text line (`bytes` without its newline), read at `receivedAt`.
    static func record(_ bytes: UnsafeRawBufferPointer, receivedAt: Date) -> LogRecord {
        if let record = logfmt(bytes, receivedAt: receivedAt) { return record }
        var record = LogRecord(format: .text, time: nil, receivedAt: receivedAt)
        var index = 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
        var stampFound = false
        let bracketed = index < bytes.count && bytes[index] == UInt8(ascii: "[")
        let stampStart = bracketed ? index + 1 : index
        if let (date, end) = LogTimestamp.scanISO(bytes, from: stampStart)
            ?? LogTimestamp.scanSyslog(bytes, from: stampStart, year: year(of: receivedAt))
        {
            record.ownTime = date
            stampFound = true
            index = end
            if bracketed {
                // `[2026-11-23 10:00:01 +0000]`: skip to the bracket's end.
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
                if index < bytes.count { index += 1 }
            }
        } else if let (severity, date, end) = klog(bytes, from: index, receivedAt: receivedAt) {
            record.ownTime = date
            record.severity = severity
            record.levelWord = String(UnicodeScalar(bytes[index]))
            index = end
            stampFound = true
        }
        let rest = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index...]), as: UTF8.self)
        if record.severity != nil {
            record.message = trimmed(rest[...])
            return record
        }
        // The first four words, split on spaces by bytes (a space is one byte, and never inside a character).
        let utf8 = rest.utf8
        var cursor = utf8.startIndex
        for position in 0..<4 {
            while cursor < utf8.endIndex, utf8[cursor] == 0x20 { cursor = utf8.index(after: cursor) }
            guard cursor < utf8.endIndex else { break }
            let wordStart = cursor
            while cursor < utf8.endIndex, utf8[cursor] != 0x20 { cursor = utf8.index(after: cursor) }
            let word = rest[wordStart..<cursor]
            guard let (severity, levelWord, logger, after) = level(in: word, position: position, stamped: stampFound)
            else { continue }
            record.severity = severity
            record.levelWord = levelWord
            record.source = logger
            let before = rest[rest.startIndex..<word.startIndex].trimmingSuffix()
            // The text after the level word: the common case (`ERROR message`) is a slice of the line, not a copy.
            let remainder = after.isEmpty ? rest[word.endIndex...] : (String(after) + rest[word.endIndex...])[...]
            if logger == nil, let named = loggerBefore(before) {
                // `%(asctime)s - %(name)s - %(levelname)s - %(message)s`, `%(name)-12s %(levelname)-8s`.
                record.source = named
                record.message = trimmed(remainder)
                return record
            }
            record.message = trimmed(before.isEmpty ? remainder : (before + " " + trimmed(remainder))[...])
            if logger == nil, before.isEmpty, let message = record.message, let (named, text) = loggerAhead(message) {
                // `%(levelname)s %(name)s: %(message)s`: the logger before a colon, then the message.
                record.source = named
                record.message = text
            }
            return record
        }
        record.message = trimmed(rest[...])
        return record
    }

    /// `E1123 10:00:01.123456 …` (glog/klog): the level letter, month and day of `receivedAt`'s year, time.
    private static func klog(_ bytes: UnsafeRawBufferPointer, from start: Int, receivedAt: Date)
        -> (ErrorSeverity, Date, Int)?
    {
        guard start + 14 <= bytes.count else { return nil }
        let severity: ErrorSeverity
        switch bytes[start] {
        case UInt8(ascii: "I"): severity = .info
        case UInt8(ascii: "W"): severity = .warning
        case UInt8(ascii: "E"): severity = .error
        case UInt8(ascii: "F"): severity = .critical
        default: return nil
        }
        let digits = (1...4).allSatisfy { bytes[start + $0] >= 48 && bytes[start + $0] <= 57 }
        guard digits, bytes[start + 5] == 32 else { return nil }
        let month = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start + 1..<start + 3]), as: UTF8.self)
        let day = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start + 3..<start + 5]), as: UTF8.self)
        let stamp = "\(year(of: receivedAt))-\(month)-\(day)T"
        var text = Array(stamp.utf8)
        var index = start + 6
        while index < bytes.count, bytes[index] != 32 {
            text.append(bytes[index])
            index += 1
        }
        guard let (date, end) = text.withUnsafeBytes({ LogTimestamp.scanISO($0, from: 0) }), end == text.count else {
            return nil
        }
        return (severity, date, index)
    }

    /// Whether `word` is a level word at `position`: the severity, the word, a Python logger name after it
    /// (`ERROR:root:…`) and the text that follows the level inside the word.
    private static func level(in word: Substring, position: Int, stamped: Bool)
        -> (ErrorSeverity, String, String?, Substring)?
    {
        var token = word
        var marked = false
        if token.utf8.first == UInt8(ascii: "l"), token.hasPrefix("level=") || token.hasPrefix("lvl=") {
            token = token.drop { $0 != "=" }.dropFirst()
            marked = true
        }
        guard let first = token.utf8.first else { return nil }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "<") || first == UInt8(ascii: "(") {
            let closer =
                first == UInt8(ascii: "[")
                ? UInt8(ascii: "]") : first == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: ")")
            guard let close = token.utf8.firstIndex(of: closer) else { return nil }
            let inner = token[token.index(after: token.startIndex)..<close]
            guard let severity = LogLevel.severity(word: inner) else { return nil }
            return (severity, String(inner), nil, token[token.index(after: close)...])
        }
        // Every level word starts with a letter: a time, a number, a path is not one.
        guard (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return nil }
        var after: Substring = ""
        var logger: String?
        if let colon = token.utf8.firstIndex(of: UInt8(ascii: ":")) {
            after = token[token.index(after: colon)...]
            token = token[..<colon]
            marked = true
            // Python's default format, `LEVEL:logger:message`.
            if let second = after.firstIndex(of: ":"), !after[..<second].isEmpty, !after[..<second].contains("/") {
                logger = String(after[..<second])
                after = after[after.index(after: second)...]
            }
        }
        guard let severity = LogLevel.severity(word: token) else { return nil }
        // A level word is ASCII letters (LogLevel says so), so its bytes are its characters.
        let upper = token.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        if token.utf8.count == 1 {
            guard upper, stamped || marked else { return nil }
        } else {
            guard marked || upper || position == 0 else { return nil }
        }
        return (severity, String(token), logger, after)
    }

    /// The logger named by the text between the time and the level (`app.db -`, `worker |`, `shop.db`): one
    /// word that reads as a logger name (``isLoggerName(_:)``), with at most a separator after it.
    private static func loggerBefore(_ text: Substring) -> String? {
        var word = text
        while let last = word.utf8.last,
            last == UInt8(ascii: "-") || last == UInt8(ascii: "|") || last == UInt8(ascii: ":")
                || last == UInt8(ascii: " ")
        {
            word = word.dropLast()
        }
        guard !word.isEmpty, !word.utf8.contains(UInt8(ascii: " ")), isLoggerName(word) else { return nil }
        return String(word)
    }

    /// The logger that starts a message as `name: text` (`shop.db: query timed out`), and the text after it; `nil`
    /// when the first word is not a logger name followed by a colon and more text.
    private static func loggerAhead(_ message: String) -> (String, String)? {
        let utf8 = message.utf8
        guard let space = utf8.firstIndex(of: UInt8(ascii: " ")), space > utf8.startIndex,
            utf8[utf8.index(before: space)] == UInt8(ascii: ":")
        else { return nil }
        let word = message[message.startIndex..<utf8.index(before: space)]
        // The name first: most messages' first word is not one, and the text is made only for those that are.
        guard isLoggerName(word) else { return nil }
        let text = trimmed(message[space...])
        guard !text.isEmpty else { return nil }
        return (String(word), text)
    }

    /// Whether `word` reads as a logger name as the logging libraries make them: letters, digits, `_`, `-`, `$`
    /// and `.`, starting with a letter or `_`, at most 100 bytes; dotted (`app.db`, `MyApp.Service`), or without
    /// capitals (`worker`, `uvicorn`), so that `Connection:` or `GET` starting a message is not taken for one.
    static func isLoggerName(_ word: Substring) -> Bool {
        guard let first = word.utf8.first, word.utf8.count <= 100,
            (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") || first == UInt8(ascii: "_")
        else { return false }
        var dotted = false
        var capital = false
        for byte in word.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"),
                UInt8(ascii: "-"), UInt8(ascii: "$"):
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): capital = true
            case UInt8(ascii: "."): dotted = true
            default: return false
            }
        }
        return dotted ? word.utf8.last != UInt8(ascii: ".") : !capital
    }

    /// Leading separators and spaces removed: ` - message`, `: message`, `| message`.
    private static func trimmed(_ text: Substring) -> String {
        // By bytes: every separator is one ASCII byte.
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            switch utf8[start] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "|"):
                start = utf8.index(after: start)
                continue
            default: break
            }
            break
        }
        var end = utf8.endIndex
        while end > start {
            let previous = utf8.index(before: end)
            let byte = utf8[previous]
            guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") else { break }
            end = previous
        }
        return String(text[start..<end])
    }

    private static func year(of date: Date) -> Int64 {
        let days = Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
        return CivilDate.civil(fromDays: days).year
    }

    // MARK: logfmt

    /// A logfmt line (`time=… level=error msg="…" err="…"`): `nil` unless it has a `level` (or `lvl`) and a `msg`
    /// (or `message`) key.
    private static func logfmt(_ bytes: UnsafeRawBufferPointer, receivedAt: Date) -> LogRecord? {
        guard bytes.contains(UInt8(ascii: "=")),
            ASCIIScan.contains(bytes, "level=") || ASCIIScan.contains(bytes, "lvl="),
            ASCIIScan.contains(bytes, "msg=") || ASCIIScan.contains(bytes, "message=")
        else { return nil }
        let pairs = LogfmtPairs.parse(bytes)
        guard pairs.contains(where: { $0.key == "level" || $0.key == "lvl" }),
            pairs.contains(where: { $0.key == "msg" || $0.key == "message" })
        else { return nil }
        var record = LogRecord(format: .logfmt, time: nil, receivedAt: receivedAt)
        var attributes: [String: String] = [:]
        for (key, value) in pairs {
            switch key {
            case "time", "ts", "t":
                if let date = LogTimestamp.parse(value)
                    ?? Double(value).flatMap({ LogTimestamp.date(epochNumber: $0) })
                {
                    record.ownTime = date
                }
            case "level", "lvl":
                record.severity = LogLevel.severity(word: value)
                record.levelWord = value
            case "msg", "message": record.message = value
            case "err", "error": record.exceptionMessage = value
            case "caller": record.setCaller(value)
            case "logger", "component": record.source = value
            case "service", "app": record.serviceName = value
            default: if attributes.count < 64 { attributes[key] = value }
            }
        }
        record.attributes = attributes
        return record
    }
}

/// logfmt's `key=value key="quoted \"value\""` pairs, read by bytes (every delimiter is ASCII). Invalid UTF-8
/// in a key or value is shown with replacement characters, as for plain lines.
enum LogfmtPairs {
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [(key: String, value: String)] {
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        let equals = UInt8(ascii: "=")
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var pairs: [(key: String, value: String)] = []
        var index = 0
        let end = bytes.count
        while index < end, pairs.count < 256 {
            while index < end, bytes[index] == space || bytes[index] == tab { index += 1 }
            guard index < end else { break }
            let keyStart = index
            while index < end, bytes[index] != equals, bytes[index] != space { index += 1 }
            let key = keyStart..<index
            guard index < end, bytes[index] == equals else {
                if !key.isEmpty { pairs.append((text(key), "true")) }
                continue
            }
            index += 1
            let value: String
            if index < end, bytes[index] == quote {
                index += 1
                let valueStart = index
                // The common case has no escapes: the value is the bytes up to the closing quote.
                while index < end, bytes[index] != quote, bytes[index] != backslash { index += 1 }
                if index >= end || bytes[index] == quote {
                    value = text(valueStart..<index)
                    if index < end { index += 1 }
                } else {
                    var unescaped = Array(bytes[valueStart..<index])
                    while index < end, bytes[index] != quote {
                        if bytes[index] == backslash, index + 1 < end {
                            index += 1
                            switch bytes[index] {
                            case UInt8(ascii: "n"): unescaped.append(UInt8(ascii: "\n"))
                            case UInt8(ascii: "t"): unescaped.append(tab)
                            default: unescaped.append(bytes[index])
                            }
                        } else if bytes[index] != backslash {
                            unescaped.append(bytes[index])
                        }
                        index += 1
                    }
                    if index < end { index += 1 }
                    value = String(decoding: unescaped, as: UTF8.self)
                }
            } else {
                let valueStart = index
                while index < end, bytes[index] != space, bytes[index] != tab { index += 1 }
                value = text(valueStart..<index)
            }
            if !key.isEmpty { pairs.append((text(key), value)) }
        }
        return pairs
    }
}

extension Substring {
    /// The text without trailing spaces, tabs and carriage returns.
    fileprivate func trimmingSuffix() -> Substring {
        var end = endIndex
        while end > startIndex {
            let previous = index(before: end)
            guard self[previous] == " " || self[previous] == "\t" || self[previous] == "\r" else { break }
            end = previous
        }
        return self[startIndex..<end]
    }
}
