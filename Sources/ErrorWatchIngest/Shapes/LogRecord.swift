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
    var event: WireEvent {
        var event = WireEvent(kind: isError ? .error : .log, time: time)
        event.serviceName = serviceName
        event.hostName = hostName
        event.pid = pid
        event.source = source
        event.severity = severity
        event.attributes = attributes
        event.attributes["log.format"] = format.rawValue
        if isError {
            let severity = severity ?? .error
            event.exceptionType =
                exceptionType ?? LogLevel.typeName(forWord: levelWord ?? severity.description, severity: severity)
            let text = exceptionMessage ?? message ?? ""
            event.exceptionMessage = text
            if let message, !message.isEmpty, message != text { event.body = message }
            event.exceptionStacktrace = stacktrace
            if let code { event.setVerbatimCode(code) }
            event.category = category
            event.codeFilePath = codeFilePath
            event.codeLineNumber = codeLineNumber
            event.codeFunction = codeFunction
        } else {
            event.body = message ?? ""
            if let stacktrace { event.attributes["stacktrace"] = stacktrace }
            if let codeFilePath {
                event.attributes["code.filepath"] = codeLineNumber.map { "\(codeFilePath):\($0)" } ?? codeFilePath
            }
        }
        return event
    }

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
        let lines = stack.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { return nil }
        let candidate = first.hasPrefix("Traceback (most recent call last)") ? lines.last ?? first : first
        return parseExceptionLine(candidate)
    }

    /// `module.Type: message`, `Type`, or `Unhandled exception. System.X: message`; `nil` when the text before the
    /// colon is not a type name (a sentence, a path).
    static func parseExceptionLine(_ line: some StringProtocol) -> (type: String, message: String)? {
        var text = Substring(line).trimmingCharacters(in: .whitespaces)[...]
        for prefix in ["Unhandled exception. ", "Unhandled Exception: ", "Uncaught "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        let head: Substring
        let message: String
        if let colon = text.firstIndex(of: ":") {
            head = text[..<colon]
            message = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
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
        guard let first = text.unicodeScalars.first, text.utf8.count <= 200,
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
