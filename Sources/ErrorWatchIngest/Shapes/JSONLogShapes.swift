import ErrorWatchWire
import ErrorStreaming
import Foundation

/// The JSON loggers' shapes: which one a line is (from its keys), and how its fields become a ``LogRecord``.
/// `docs/formats.md` documents each; `FormatsDocsTests` keeps that table true against ``fieldsRead``.
enum JSONLogShapes {
    /// The shape of a JSON object line that is not our wire format, from its keys.
    static func detect(_ fields: JSONFields) -> LogFormat {
        if fields.has("@t") || fields.has("@mt") || fields.has("@m") { return .clef }
        if fields.has("short_message") { return .gelf }
        if fields.has("levelname") || fields.has("asctime") || fields.has("exc_info") { return .pythonJSON }
        if fields.isNumber("level") {
            if case .number? = fields["v"], fields.has("hostname") || fields.has("name"), !fields.isNumber("time") {
                return .bunyan
            }
            return .pino
        }
        if fields.has("ts"), fields.has("msg") || fields.has("caller") { return .zap }
        if fields.has("event"), fields.has("level") || fields.has("timestamp") || fields.has("logger") {
            return .structlog
        }
        if fields.has("msg"), fields.has("level"), fields.has("time") { return .logrus }
        return .json
    }

    /// The keys each shape reads (the rest become attributes), in the order `docs/formats.md` lists them.
    static func fieldsRead(by format: LogFormat) -> [String] {
        switch format {
        case .pino, .bunyan:
            ["level", "time", "msg", "err.type", "err.message", "err.stack", "err.code", "name", "hostname", "pid"]
        case .zap: ["level", "ts", "msg", "logger", "caller", "error", "stacktrace"]
        case .logrus: ["level", "time", "msg", "error", "func", "file"]
        case .structlog: ["event", "level", "timestamp", "logger", "exception"]
        case .clef: ["@t", "@m", "@mt", "@l", "@x", "@i", "SourceContext", "Application"]
        case .gelf: ["short_message", "full_message", "level", "host", "timestamp", "_fields"]
        case .pythonJSON: ["asctime", "levelname", "name", "message", "exc_info", "funcName", "lineno", "pathname"]
        case .json:
            [
                "msg", "message", "event", "level", "severity", "time", "timestamp", "ts", "@timestamp", "error",
                "service", "stack", "code",
            ]
        case .auto, .wire, .logfmt, .text: []
        }
    }

    /// The record a JSON object line of `format` describes; `receivedAt` is its time when the line has none.
    ///
    /// A line whose time member is there but cannot be read (`2026-13-01T…`, `1e308`, `-1`) is not given the
    /// previous line's time: it is counted at `receivedAt`, and what it sent is kept in
    /// ``WireEvent/unreadableTimeAttribute``.
    static func record(_ fields: JSONFields, format: LogFormat, receivedAt: Date) -> LogRecord {
        var record =
            switch format {
            case .pino, .bunyan: pino(fields, format: format, receivedAt: receivedAt)
            case .zap: zap(fields, receivedAt: receivedAt)
            case .logrus: logrus(fields, receivedAt: receivedAt)
            case .structlog: structlog(fields, receivedAt: receivedAt)
            case .clef: clef(fields, receivedAt: receivedAt)
            case .gelf: gelf(fields, receivedAt: receivedAt)
            case .pythonJSON: pythonJSON(fields, receivedAt: receivedAt)
            case .auto, .wire, .json, .logfmt, .text: generic(fields, receivedAt: receivedAt)
            }
        if record.ownTime == nil, let key = timeKeys(format).first(where: fields.has), let sent = fields.text(key) {
            record.ownTime = receivedAt
            record.attributes[WireEvent.unreadableTimeAttribute] = sent
        }
        return record
    }

    /// The members each shape reads its time from.
    static func timeKeys(_ format: LogFormat) -> [String] {
        switch format {
        case .pino, .bunyan, .logrus: ["time"]
        case .zap: ["ts"]
        case .structlog, .gelf: ["timestamp"]
        case .clef: ["@t"]
        case .pythonJSON: ["asctime", "timestamp"]
        case .auto, .wire, .json, .logfmt, .text: ["time", "timestamp", "ts", "@timestamp"]
        }
    }

    private static func pino(_ fields: JSONFields, format: LogFormat, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: format, time: fields.date("time", milliseconds: true), receivedAt: receivedAt)
        if let level = fields.number("level") {
            record.severity = LogLevel.severity(pino: level)
            record.levelWord = level >= 60 ? "fatal" : nil
        } else if let word = fields.text("level") {
            record.severity = LogLevel.severity(word: word)
            record.levelWord = word
        }
        record.message = fields.text("msg")
        record.serviceName = fields.text("name")
        record.hostName = fields.text("hostname")
        record.pid = fields.number("pid").flatMap { Int(exactly: $0) }
        record.attributes = fields.attributes(
            excluding: Known.pino)
        if let err = fields.object("err") ?? fields.object("error") {
            record.exceptionType = err.text("type") ?? err.text("name")
            record.exceptionMessage = err.text("message")
            if let stack = err.text("stack") { record.setException(fromStack: stack) }
            if let code = err.text("code") { record.code = code }
        } else if let text = fields.text("err") ?? fields.text("error") {
            record.exceptionMessage = text
        }
        return record
    }

    private static func zap(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: .zap, time: fields.date("ts"), receivedAt: receivedAt)
        readLevel(fields, key: "level", into: &record)
        record.message = fields.text("msg")
        record.source = fields.text("logger")
        if let caller = fields.text("caller") { record.setCaller(caller) }
        record.exceptionMessage = fields.text("error")
        record.stacktrace = fields.text("stacktrace")
        record.attributes = fields.attributes(excluding: Known.zap)
        return record
    }

    private static func logrus(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: .logrus, time: fields.date("time"), receivedAt: receivedAt)
        readLevel(fields, key: "level", into: &record)
        record.message = fields.text("msg")
        record.exceptionMessage = fields.text("error")
        record.codeFunction = fields.text("func")
        if let file = fields.text("file") { record.setCaller(file) }
        record.attributes = fields.attributes(excluding: Known.logrus)
        return record
    }

    private static func structlog(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: .structlog, time: fields.date("timestamp"), receivedAt: receivedAt)
        readLevel(fields, key: "level", into: &record)
        record.message = fields.text("event")
        record.source = fields.text("logger")
        if case .string(let exception)? = fields["exception"] {
            record.setException(fromStack: exception)
        } else if let exception = fields.text("exception") {
            record.stacktrace = exception
            record.exceptionMessage = record.message
        }
        record.attributes = fields.attributes(excluding: Known.structlog)
        return record
    }

    private static func clef(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: .clef, time: fields.date("@t"), receivedAt: receivedAt)
        let word = fields.text("@l") ?? "Information"
        record.severity = LogLevel.severity(word: word) ?? .info
        record.levelWord = word
        record.message = fields.text("@m") ?? fields.text("@mt").map { MessageTemplate.render($0, with: fields) }
        if let exception = fields.text("@x") { record.setException(fromStack: exception) }
        record.source = fields.text("SourceContext")
        record.serviceName = fields.text("Application")
        record.attributes = fields.attributes(
            excluding: Known.clef)
        if let id = record.attributes.removeValue(forKey: "@i") { record.attributes["event.id"] = id }
        return record
    }

    private static func gelf(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(format: .gelf, time: fields.date("timestamp"), receivedAt: receivedAt)
        // GELF's level defaults to 1 (alert) when absent.
        record.severity = LogLevel.severity(syslog: fields.number("level") ?? 1)
        record.message = fields.text("short_message")
        record.hostName = fields.text("host")
        if let full = fields.text("full_message") {
            if let (type, message) = StackText.exceptionLine(in: full) {
                record.exceptionType = type
                record.exceptionMessage = message
            }
            record.stacktrace = full
        }
        var attributes: [String: String] = [:]
        for member in fields.members where member.key.hasPrefix("_") && member.key != "_id" {
            guard attributes.count < 64, let text = fields.text(of: member.value) else { continue }
            attributes[String(member.key.dropFirst())] = text
        }
        record.serviceName = attributes["service"] ?? attributes["application_name"] ?? attributes["app"]
        if let pid = attributes["pid"].flatMap({ Int($0) }) { record.pid = pid }
        record.attributes = attributes
        return record
    }

    private static func pythonJSON(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        var record = LogRecord(
            format: .pythonJSON, time: fields.date("asctime") ?? fields.date("timestamp"), receivedAt: receivedAt)
        readLevel(fields, key: "levelname", into: &record)
        record.message = fields.text("message") ?? fields.text("msg")
        record.source = fields.text("name")
        if let trace = fields.text("exc_info") ?? fields.text("exc_text") { record.setException(fromStack: trace) }
        record.codeFunction = fields.text("funcName")
        record.codeFilePath = fields.text("pathname") ?? fields.text("filename")
        record.codeLineNumber = fields.number("lineno").flatMap { Int(exactly: $0) }
        record.pid = fields.number("process").flatMap { Int(exactly: $0) }
        record.attributes = fields.attributes(
            excluding: Known.pythonJSON)
        return record
    }

    private static func generic(_ fields: JSONFields, receivedAt: Date) -> LogRecord {
        let time = fields.date("time") ?? fields.date("timestamp") ?? fields.date("ts") ?? fields.date("@timestamp")
        var record = LogRecord(format: .json, time: time, receivedAt: receivedAt)
        for key in ["level", "severity", "lvl", "loglevel", "log.level"] where fields.has(key) {
            readLevel(fields, key: key, into: &record)
            break
        }
        record.message = fields.text("msg") ?? fields.text("message") ?? fields.text("event") ?? fields.text("text")
        record.serviceName = fields.text("service") ?? fields.text("service.name") ?? fields.text("app")
        if let error = fields.text("error") ?? fields.text("err") { record.exceptionMessage = error }
        if let code = fields.text("code") ?? fields.text("error.code") ?? fields.text("error_code") {
            record.code = code
        }
        if let stack = fields.text("stack") ?? fields.text("stacktrace") ?? fields.text("stack_trace") {
            record.setException(fromStack: stack)
        }
        if record.message == nil {
            record.message = String(decoding: fields.bytes, as: UTF8.self)
        } else {
            record.attributes = fields.attributes(
                excluding: Known.generic)
        }
        return record
    }

    /// A level member: a word (`error`), or a number read as pino's scale when ≥ 10 or syslog's when < 10.
    private static func readLevel(_ fields: JSONFields, key: String, into record: inout LogRecord) {
        if let number = fields.number(key), fields.isNumber(key) {
            record.severity = number >= 10 ? LogLevel.severity(pino: number) : LogLevel.severity(syslog: number)
        } else if let word = fields.text(key) {
            record.severity = LogLevel.severity(word: word)
            record.levelWord = word
        }
    }

    /// The members each shape reads, kept out of its attributes: made once, not once per line.
    private enum Known {
        static let pino: Set<String> = ["level", "time", "msg", "err", "error", "name", "hostname", "pid", "v"]
        static let zap: Set<String> = ["level", "ts", "msg", "logger", "caller", "error", "stacktrace"]
        static let logrus: Set<String> = ["level", "time", "msg", "error", "func", "file"]
        static let structlog: Set<String> = ["event", "level", "timestamp", "logger", "exception"]
        static let clef: Set<String> = ["@t", "@m", "@mt", "@l", "@x", "@r", "SourceContext", "Application"]
        static let pythonJSON: Set<String> = [
            "asctime", "timestamp", "levelname", "message", "msg", "name", "exc_info", "exc_text", "funcName",
            "pathname", "filename", "lineno", "process",
        ]
        static let generic: Set<String> = [
            "msg", "message", "event", "text", "level", "severity", "lvl", "loglevel", "log.level", "time", "timestamp",
            "ts", "@timestamp", "service", "service.name", "app", "error", "err", "stack", "stacktrace", "stack_trace",
            "code", "error.code", "error_code",
        ]
    }
}

/// Serilog's message templates: `{Name}`, `{@Name}`, `{$Name}`, `{Name:format}`, `{Name,width}`, `{{` and `}}`.
enum MessageTemplate {
    /// The template with each property replaced by its value from `fields` (strings quoted, as Serilog renders
    /// them, unless the format is `l`); a property the line lacks stays as written.
    static func render(_ template: String, with fields: JSONFields) -> String {
        // By bytes: the text between braces is copied in runs, not a character at a time.
        let utf8 = template.utf8
        let open = UInt8(ascii: "{")
        let shut = UInt8(ascii: "}")
        var output = ""
        output.reserveCapacity(utf8.count + 32)
        var literal = utf8.startIndex
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == open || byte == shut else {
                index = utf8.index(after: index)
                continue
            }
            output += template[literal..<index]
            let next = utf8.index(after: index)
            if next < utf8.endIndex, utf8[next] == byte {
                // `{{` and `}}` are literal braces.
                output.append(byte == open ? "{" : "}")
                index = utf8.index(after: next)
            } else if byte == open, let close = utf8[next...].firstIndex(of: shut) {
                let hole = template[next..<close]
                var name = hole.prefix { $0 != ":" && $0 != "," }
                let format = hole.firstIndex(of: ":").map { hole[hole.index(after: $0)...] } ?? ""
                if name.hasPrefix("@") || name.hasPrefix("$") { name = name.dropFirst() }
                if let value = fields[String(name)], let text = fields.text(of: value) {
                    if case .string = value, format != "l" { output += "\"\(text)\"" } else { output += text }
                } else {
                    output += template[index...close]
                }
                index = utf8.index(after: close)
            } else {
                output.append(byte == open ? "{" : "}")
                index = next
            }
            literal = index
        }
        output += template[literal..<utf8.endIndex]
        return output
    }
}
