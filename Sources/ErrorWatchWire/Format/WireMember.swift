import Foundation

/// The members of a wire line, each named once: the one table the reader, the writers, the `Codable` keys, the
/// OTLP mapper and `docs/wire-format.md`'s test all use.
///
/// Each name is spelled in ``jsonKey`` as the writers append it, after the comma that separates it from the
/// previous member (`,"status.health":`). Writing a line is a hot path (about a microsecond and a half per
/// event), so the writers append that static string in one copy, as fast as a literal at the call site; ``name``,
/// ``init(name:)`` and the `CodingKey` conformance read the same table.
///
/// ```swift
/// WireMember.statusHealth.name                   // "status.health"
/// WireMember(name: "status.health")              // .statusHealth
/// try decoder.container(keyedBy: WireMember.self)
/// ```
public enum WireMember: CaseIterable, Sendable, Hashable, CodingKey, CustomStringConvertible {
    /// `v`: the format's major version.
    case version
    /// `kind`: error, log, metric, status or handling.
    case kind
    /// `time`: when it happened, RFC 3339.
    case time
    /// `service.name`: the producing application.
    case serviceName
    /// `process.pid`: the producing process.
    case pid
    /// `host.name`: the producing host.
    case hostName
    /// `source`: the component inside the producer.
    case source
    /// `exception.type`: the error's fully qualified type name.
    case exceptionType
    /// `exception.message`: the technical message.
    case exceptionMessage
    /// `message.user`: the sentence shown to a user.
    case userMessage
    /// `error.code`: the stable code, like `N-503`.
    case code
    /// `error.category`: bug, userActionable, transient, unrecoverable or expected.
    case category
    /// `severity`: our severity names.
    case severity
    /// `severity_text`: OpenTelemetry's severity, read when `severity` is absent.
    case severityText
    /// `origin`: user or background.
    case origin
    /// `attempt`: the attempt number of a retried operation.
    case attempt
    /// `sequence`: the producer's sequence number for the event.
    case sequence
    /// `attributes`: free-form string metadata.
    case attributes
    /// `body`: a log record's message.
    case body
    /// `log.message`: read as `body` when `body` is absent.
    case logMessage
    /// `metric.name`.
    case metricName
    /// `metric.value`.
    case metricValue
    /// `metric.unit`.
    case metricUnit
    /// `metric.kind`: gauge, counter or histogram.
    case metricKind
    /// `status.name`: which of the producer's statuses.
    case statusName
    /// `status.state`: the producer's own word for where it is.
    case statusState
    /// `status.health`: ok, degraded, failing or idle.
    case statusHealth
    /// `status.detail`: a line of explanation beside the state.
    case statusDetail
    /// `exception.stacktrace`: the error's stack trace.
    case exceptionStacktrace
    /// `code.filepath`: the source file the error was raised in.
    case codeFilePath
    /// `code.lineno`: the line in the file.
    case codeLineNumber
    /// `code.function`: the function the error was raised in.
    case codeFunction
    /// `handling.path`: the handler nodes whose action ran.
    case handlingPath
    /// `handling.outcome`: how the handling ended.
    case handlingOutcome
    /// `handling.handled`: whether a handler dealt with the error.
    case handlingHandled
    /// `trace_id`: the trace the event belongs to, 32 lowercase hex digits (OpenTelemetry's log record field).
    case traceID
    /// `span_id`: the span the event belongs to, 16 lowercase hex digits.
    case spanID
    /// `service.version`: the producing application's version (OpenTelemetry's resource attribute).
    case serviceVersion
    /// `deployment.environment.name`: where the producer runs (`production`, `staging`).
    case deploymentEnvironment
    /// `fingerprint`: the producer's own grouping key for an error; when present it decides the error's issue.
    case fingerprint
    /// `exception.report`: what an error reporter SDK sent beyond the members above (the exception chain, frames
    /// with source lines and variables, tags, contexts, breadcrumbs), as an object (``ExceptionReport``'s JSON).
    case exceptionReport

    /// The member as the writers append it after a previous member: `,"status.health":`. The one place each
    /// member's name is spelled.
    package var jsonKey: StaticString {
        switch self {
        case .version: #","v":"#
        case .kind: #","kind":"#
        case .time: #","time":"#
        case .serviceName: #","service.name":"#
        case .pid: #","process.pid":"#
        case .hostName: #","host.name":"#
        case .source: #","source":"#
        case .exceptionType: #","exception.type":"#
        case .exceptionMessage: #","exception.message":"#
        case .userMessage: #","message.user":"#
        case .code: #","error.code":"#
        case .category: #","error.category":"#
        case .severity: #","severity":"#
        case .severityText: #","severity_text":"#
        case .origin: #","origin":"#
        case .attempt: #","attempt":"#
        case .sequence: #","sequence":"#
        case .attributes: #","attributes":"#
        case .body: #","body":"#
        case .logMessage: #","log.message":"#
        case .metricName: #","metric.name":"#
        case .metricValue: #","metric.value":"#
        case .metricUnit: #","metric.unit":"#
        case .metricKind: #","metric.kind":"#
        case .statusName: #","status.name":"#
        case .statusState: #","status.state":"#
        case .statusHealth: #","status.health":"#
        case .statusDetail: #","status.detail":"#
        case .exceptionStacktrace: #","exception.stacktrace":"#
        case .codeFilePath: #","code.filepath":"#
        case .codeLineNumber: #","code.lineno":"#
        case .codeFunction: #","code.function":"#
        case .handlingPath: #","handling.path":"#
        case .handlingOutcome: #","handling.outcome":"#
        case .handlingHandled: #","handling.handled":"#
        case .traceID: #","trace_id":"#
        case .spanID: #","span_id":"#
        case .serviceVersion: #","service.version":"#
        case .deploymentEnvironment: #","deployment.environment.name":"#
        case .fingerprint: #","fingerprint":"#
        case .exceptionReport: #","exception.report":"#
        }
    }

    /// The member's name on the wire: `exception.type`.
    public var name: String { Self.names[self] ?? "" }

    /// The member named `name` (case-sensitive, as JSON keys are); `nil` for a name the format does not know.
    ///
    /// Looks among the members of the same length only, so reading a line costs what a `switch` over the names
    /// would.
    public init?(name: String) {
        var name = name
        guard let member = name.withUTF8({ Self(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = member
    }

    /// The member whose name is the UTF-8 text `utf8`: ``init(name:)`` without making a `String` of a key.
    package init?(utf8: UnsafeRawBufferPointer) {
        let length = utf8.count
        guard length > 0, length < Self.byLength.count else { return nil }
        for (candidate, member) in Self.byLength[length] {
            let same = candidate.withUnsafeBytes { memcmp($0.baseAddress!, utf8.baseAddress!, length) == 0 }
            if same {
                self = member
                return
            }
        }
        return nil
    }

    /// The name, as ``name``.
    public var description: String { name }

    /// The member's name as a `CodingKey`: ``name``.
    public var stringValue: String { name }

    /// The member named `stringValue`, as ``init(name:)``.
    public init?(stringValue: String) { self.init(name: stringValue) }

    /// Always `nil`: the wire's members are named, not numbered.
    public var intValue: Int? { nil }

    /// Always `nil`: the wire's members are named, not numbered.
    public init?(intValue: Int) { return nil }

    /// ``jsonKey`` without its comma, colon and quotes, made once per member.
    private static let names: [WireMember: String] = Dictionary(
        uniqueKeysWithValues: allCases.map { member in
            let key = member.jsonKey
            let bytes = UnsafeBufferPointer(start: key.utf8Start + 2, count: key.utf8CodeUnitCount - 4)
            return (member, String(decoding: bytes, as: UTF8.self))
        })

    /// The members by the length of their name, each name as its UTF-8 bytes, for ``init(utf8:)``.
    private static let byLength: [[([UInt8], WireMember)]] = {
        var table: [[([UInt8], WireMember)]] = []
        for member in allCases {
            let name = Array(member.name.utf8)
            while table.count <= name.count { table.append([]) }
            table[name.count].append((name, member))
        }
        return table
    }()
}

extension [UInt8] {
    /// Appends `,"member":` in one copy: what every member after a line's first is preceded by.
    @inline(__always)
    mutating func appendKey(_ member: WireMember) {
        appendLiteral(member.jsonKey)
    }

    /// Appends `{"member":`, the start of a line's first member.
    @inline(__always)
    mutating func appendFirstKey(_ member: WireMember) {
        let key = member.jsonKey
        append(UInt8(ascii: "{"))
        append(contentsOf: UnsafeBufferPointer(start: key.utf8Start + 1, count: key.utf8CodeUnitCount - 1))
    }
}

extension WireError {
    /// ``missingField(_:)`` named by its member.
    static func missing(_ member: WireMember) -> WireError { .missingField(member.name) }

    /// ``invalidField(_:)`` named by its member.
    static func invalid(_ member: WireMember) -> WireError { .invalidField(member.name) }
}
