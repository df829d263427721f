import ErrorWatchWire
import ErrorStreaming
import Foundation

/// What a log line said, whatever its shape, before it becomes a ``WireEvent``: the one place that decides
/// whether a line is an error (error level or above, or carrying an exception) and how its fields map.
struct LogRecord {
    /// The code every error read from a log line gets unless the line gives one.
    static let defaultCode = ErrorCode(parsing: "X-0")!

    var format: LogFormat
    var time: Date
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
    var code: ErrorCode?
    var category: ErrorCategory?
    var attributes: [String: String] = [:]

    init(format: LogFormat, time: Date) {
        self.format = format
        self.time = time
    }

    /// Whether the line is an error: at error level or above, or carrying an exception.
    var isError: Bool {
        if let severity, severity >= .error { return true }
        return exceptionType != nil || exceptionMessage != nil
    }

    /// The event: an error (type from the exception or the level word, code `X-0` and category `unrecoverable`
    /// unless given) or a log line with its level.
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
            if let message, !message.isEmpty, message != text { event.attributes["log.message"] = message }
            event.exceptionStacktrace = stacktrace
            event.code = code ?? Self.defaultCode
            event.category = category ?? .unrecoverable
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
