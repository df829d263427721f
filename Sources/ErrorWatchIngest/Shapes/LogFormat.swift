import ErrorWatchWire

/// The shape of a log line: our wire format, one of the common JSON loggers' formats, or plain text.
///
/// A ``LineReader`` in ``auto`` mode picks a shape per line from the first keys of a JSON object (or takes the
/// line as plain text); `--format NAME` forces one for a source. `docs/formats.md` lists the fields each shape
/// reads, with an example line.
///
/// ```swift
/// LogFormat(name: "zap")      // .zap
/// LogFormat(name: "serilog")  // .clef
/// ```
public enum LogFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Pick per line: our wire format first, then the JSON shapes by their keys, then plain text.
    case auto
    /// errorwatch's NDJSON wire format only (`docs/wire-format.md`); anything else is a bad line.
    case wire
    /// pino (Node): numeric `level`, `time` in milliseconds, `msg`, `err`.
    case pino
    /// bunyan (Node): as pino, with an ISO `time` and `v: 0`.
    case bunyan
    /// zap's production JSON encoder (Go): `level`, `ts` in seconds, `caller`, `msg`, `error`, `stacktrace`.
    case zap
    /// logrus' JSON formatter (Go): `level`, `msg`, `time`, `error`.
    case logrus
    /// structlog's JSON renderer (Python): `event`, `level`, `timestamp`, `logger`, `exception`.
    case structlog
    /// Serilog's compact JSON (CLEF, .NET): `@t`, `@m` or `@mt` with its properties, `@l`, `@x`, `@i`.
    case clef
    /// GELF 1.1 (Graylog): `short_message`, `full_message`, syslog `level`, `host`, `timestamp`, `_` fields.
    case gelf
    /// python-json-logger: `asctime`, `levelname`, `name`, `message`, `exc_info`.
    case pythonJSON = "python-json"
    /// Any other JSON object: its `msg`, `message` or `event` field (or the raw line) and its level, if any.
    case json
    /// logfmt (`level=error msg="…" err="…"`), as logrus' and Go kit's text formatters write it.
    case logfmt
    /// Plain text: an optional timestamp and level word, the rest as the message; stack traces folded in.
    case text

    /// The name `--format` takes.
    public var description: String { rawValue }

    /// Parses a `--format` name, case-insensitively; `serilog` and `compact` name ``clef``, `ndjson` names ``wire``, `python` names
    /// ``pythonJSON``, `plain` names ``text``.
    public init?(name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "serilog", "compact": self = .clef
        case "python", "python-json-logger", "pythonjson": self = .pythonJSON
        case "plain": self = .text
        case "ndjson": self = .wire
        default:
            guard let format = LogFormat(rawValue: lowered) else { return nil }
            self = format
        }
    }

    /// Every name `--format` accepts, for help and error messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
