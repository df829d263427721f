import ErrorWatchWire
import ErrorStreaming
import Foundation

/// What a log line said, whatever its shape, before it becomes a ``WireEvent``: the one place that decides
/// whether a line is an error (error level or above, or carrying an exception) and how its fields map.
struct LogRecord {
    var format: LogFormat
    /// The line's own time, when it carried one.
    var ownTime: Date?
    /// When the line was read: its time when it carries none and no earlier line of its source did.
    var receivedAt: Date
    /// The time of the previous line of the same source, taken by a line without one (set by ``LineReader``).
    var inheritedTime: Date?
    /// The time the event gets: its own, else the previous line's, else the time it was read.
    var time: Date { ownTime ?? inheritedTime ?? receivedAt }
    var severity: ErrorSeverity?
    /// The level as the line wrote it (`ERROR`, `fatal`), for the error type when no exception names one.
    var levelWord: String?
    var message: String?
    var source: String?
    var serviceName: String?
    var hostName: String?
    var pid: Int?
    var exceptionType: String?
    var exceptionMessage: String?
    var stacktrace: String?
    var codeFilePath: String?
    var codeLineNumber: Int?
    var codeFunction: String?
    /// The code as the line wrote it (`L-042`, `40001`, `ERR_CONN_RESET`), if it gave one.
    var code: String?
    var category: ErrorCategory?
    var attributes: [String: String] = [:]

    /// A record of `format` read at `receivedAt`, with the line's own time if it had one.
    init(format: LogFormat, time: Date?, receivedAt: Date) {
        self.format = format
        self.ownTime = time
        self.receivedAt = receivedAt
    }

    /// Whether the line is an error: at error level or above, or carrying an exception.
    var isError: Bool {
        if let severity, severity >= .error { return true }
        return exceptionType != nil || exceptionMessage != nil
    }

    /// The event: an error or a log line with its level.
    ///
    /// An error keeps both messages: the exception's (type, message, stack) as `exception.*`, and the line's own
    /// message, when it says something the exception's does not, as `body`. Its type is the exception's, else the
    /// level word; its code and category are the line's, or absent: a log line that names neither is unclassified,
    /// and nothing is invented for it.
    ///
    /// Taken, not copied: the record's attributes move into the event (a copy would be copied again to add
    /// `log.format`, for every line), so the record is left without them.
    mutating func takeEvent() -> WireEvent {
        var attributes: [String: String]
        if self.attributes.isEmpty {
            // Most lines (plain text) have no attributes but their format's: one dictionary made once per format,
            // shared, rather than one made for every line.
            attributes = Self.formatAttributes[format] ?? ["log.format": format.rawValue]
        } else {
            attributes = self.attributes
            self.attributes = [:]
            attributes["log.format"] = format.rawValue
        }
        // One initialiser call with every member, rather than an empty event then a dozen assignments: the
        // assignments made the optimiser copy the whole event.
        guard isError else {
            if let stacktrace { attributes["stacktrace"] = stacktrace }
            if let codeFilePath {
                attributes["code.filepath"] = codeLineNumber.map { "\(codeFilePath):\($0)" } ?? codeFilePath
            }
            return WireEvent(
                kind: .log, time: time, serviceName: serviceName, pid: pid, hostName: hostName, source: source,
                severity: severity, attributes: attributes, body: message ?? "")
        }
        let level = severity ?? .error
        let type = exceptionType ?? LogLevel.typeName(forWord: levelWord ?? level.description, severity: level)
        let text = exceptionMessage ?? message ?? ""
        let body = message.flatMap { !$0.isEmpty && $0 != text ? $0 : nil }
        var event = WireEvent(
            kind: .error, time: time, serviceName: serviceName, pid: pid, hostName: hostName, source: source,
            exceptionType: type, exceptionMessage: text, category: category, severity: severity,
            attributes: attributes, body: body, exceptionStacktrace: stacktrace, codeFilePath: codeFilePath,
            codeLineNumber: codeLineNumber, codeFunction: codeFunction)
        if let code { event.setVerbatimCode(code) }
        return event
    }

    /// The attributes of a line with none of its own: its format, by format.
    private static let formatAttributes: [LogFormat: [String: String]] = Dictionary(
        uniqueKeysWithValues: LogFormat.allCases.map { ($0, ["log.format": $0.rawValue]) })

    /// Reads `caller` fields like `main.go:42` or `app/handler.go:17` into a file and line.
    mutating func setCaller(_ caller: String) {
        if let colon = caller.lastIndex(of: ":"), let line = Int(caller[caller.index(after: colon)...]), line >= 0 {
            codeFilePath = String(caller[..<colon])
            codeLineNumber = line
        } else {
            codeFilePath = caller
        }
    }

    /// Takes the exception's type and message from a stack text: Python's last line (`KeyError: 'x'`), or the
    /// first line of a JavaScript, Java or .NET stack (`TypeError: x is undefined`).
    mutating func setException(fromStack stack: String) {
        stacktrace = stack
        guard let (type, message) = StackText.exceptionLine(in: stack) else { return }
        if exceptionType == nil { exceptionType = type }
        if exceptionMessage == nil { exceptionMessage = message }
    }
}

/// Reading exception lines out of stack texts.
enum StackText {
    /// The `Type: message` line of a stack text: the last line of a Python traceback, the first of others.
    static func exceptionLine(in stack: String) -> (type: String, message: String)? {
        // The first and last non-empty lines only, found by bytes: a stack can be long, and most are read for
        // their first line.
        let utf8 = stack.utf8
        let newline = UInt8(ascii: "\n")
        guard let start = utf8.firstIndex(where: { $0 != newline }) else { return nil }
        let firstEnd = utf8[start...].firstIndex(of: newline) ?? utf8.endIndex
        let first = stack[start..<firstEnd]
        guard first.hasPrefix("Traceback (most recent call last)") else { return parseExceptionLine(first) }
        var end = utf8.endIndex
        while end > start, utf8[utf8.index(before: end)] == newline { end = utf8.index(before: end) }
        let lastStart = utf8[start..<end].lastIndex(of: newline).map { utf8.index(after: $0) } ?? start
        return parseExceptionLine(stack[lastStart..<end])
    }

    /// `module.Type: message`, `Type`, or `Unhandled exception. System.X: message`; `nil` when the text before the
    /// colon is not a type name (a sentence, a path).
    static func parseExceptionLine(_ line: some StringProtocol) -> (type: String, message: String)? {
        var text = ASCIIScan.trimmingBlanks(Substring(line))
        for prefix in ["Unhandled exception. ", "Unhandled Exception: ", "Uncaught "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        let head: Substring
        let message: String
        if let colon = text.firstIndex(of: ":") {
            head = text[..<colon]
            message = String(ASCIIScan.trimmingBlanks(text[text.index(after: colon)...]))
        } else {
            head = text
            message = ""
        }
        guard isTypeName(head) else { return nil }
        return (String(head), message)
    }

    /// A dotted identifier that looks like a type (`KeyError`, `java.lang.IllegalStateException`, `$Proxy1`),
    /// possibly generic or nested (`Foo<Bar>`, `Outer+Inner`).
    static func isTypeName(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= 200 else { return false }
        guard first < 0x80 else { return isTypeNameByScalars(text) }
        // ASCII, the common case, by bytes; the first non-ASCII byte hands the whole name to the scalar rules.
        guard first.isASCIILetter || first == UInt8(ascii: "_") || first == UInt8(ascii: "$") else { return false }
        var sawUpper = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sawUpper = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "+"), UInt8(ascii: "`"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"):
                continue
            case 0x80...: return isTypeNameByScalars(text)
            default: return false
            }
        }
        return sawUpper
    }

    /// ``isTypeName(_:)`` by Unicode scalar properties, for names that are not all ASCII.
    private static func isTypeNameByScalars(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first,
            first.properties.isAlphabetic || first == "_" || first == "$"
        else { return false }
        var sawUpper = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isUppercase { sawUpper = true }
            let allowed =
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || "_$.<>+`,[]".unicodeScalars
                    .contains(scalar)
            guard allowed else { return false }
        }
        return sawUpper
    }
}

extension UInt8 {
    /// `A`–`Z` or `a`–`z`.
    fileprivate var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
}
