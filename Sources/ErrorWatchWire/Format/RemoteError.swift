import ErrorStreaming
import Foundation

/// An error reported by another process over the wire, as a ``ClassifiedError`` for the local ``ErrorStream``.
///
/// It carries what the producer said about the error, so alerts, metrics and logs downstream treat it like a
/// local one: ``Classification`` reports the *remote* type name (``typeName``), and the fingerprint groups by it
/// and the code, so a remote error and the same error raised locally share an alert. It also keeps the
/// producer's stack trace and source location, when the line carries them, for a detail view: as a
/// ``LocatedError``, the event it is added with reports the producer's location (``ErrorEvent/location``), not
/// the line that added it.
///
/// Where it came from travels with it as typed values, never as metadata strings: the producer's service, process
/// and host, the producer's own time (``time``), and, once a receiver has read it, where the line was read
/// (``receivedFrom``) and when (``receivedAt``).
///
/// ```swift
/// let listener = FeedListener(endpoint: .unix(path: "/tmp/ew.sock")) { _, event in
///     if let error = RemoteError(event) { stream.add(error, context: event.errorContext) }
/// }
/// ```
public struct RemoteError: ClassifiedError, LocatedError, Sendable, Hashable, CustomStringConvertible {
    /// The producer's fully qualified type name (`exception.type`).
    public var typeName: String
    /// The producer's technical message (`exception.message`), without the type name.
    public var message: String
    /// The stable code; `X-0` when the producer sent none.
    public var code: ErrorCode
    /// The category; `unrecoverable` when the producer sent none.
    public var category: ErrorCategory
    /// The sentence for the user; the category's default when the producer sent none.
    public var userMessage: String
    /// The severity; the category's default when the producer sent none.
    public var severity: ErrorSeverity
    /// The producing service (`service.name`), if known.
    public var serviceName: String?
    /// The producer's stack trace (`exception.stacktrace`), if it sent one.
    public var stackTrace: String?
    /// Where the producer raised the error (`code.filepath`, `code.lineno`, `code.function`), if it said.
    public var sourceLocation: CodeLocation?
    /// The producing process (`process.pid`), if known.
    public var pid: Int?
    /// The producing host (`host.name`), if known.
    public var hostName: String?
    /// When the producer says the error happened (the line's `time`), if it said.
    public var time: Date?
    /// Where a receiver read the line (`socket #3 on unix:/tmp/ew.sock`, `file /var/log/app.ndjson`); set by the
    /// receiver, `nil` until then.
    public var receivedFrom: String?
    /// When a receiver read the line; set by the receiver, `nil` until then.
    public var receivedAt: Date?
    /// The trace the error happened in (`trace_id`, 32 lowercase hex digits), if the producer said.
    public var traceID: String?
    /// The span the error happened in (`span_id`, 16 lowercase hex digits), if the producer said.
    public var spanID: String?
    /// The producer's version (`service.version`), as it wrote it, if it said.
    public var serviceVersion: String?
    /// Where the producer runs (`deployment.environment.name`), if it said.
    public var environment: String?
    /// The producer's own grouping key (`fingerprint`), if it sent one: when set it is ``fingerprint``.
    public var producerFingerprint: String?

    /// Creates a remote error from its parts.
    public init(
        typeName: String, message: String, code: ErrorCode = ErrorCode("X", 0),
        category: ErrorCategory = .unrecoverable, userMessage: String? = nil, severity: ErrorSeverity? = nil,
        serviceName: String? = nil, stackTrace: String? = nil, sourceLocation: CodeLocation? = nil,
        pid: Int? = nil, hostName: String? = nil, time: Date? = nil
    ) {
        self.typeName = typeName
        self.message = message
        self.code = code
        self.category = category
        self.userMessage = userMessage ?? category.defaultUserMessage
        self.severity = severity ?? category.defaultSeverity
        self.serviceName = serviceName
        self.stackTrace = stackTrace
        self.sourceLocation = sourceLocation
        self.pid = pid
        self.hostName = hostName
        self.time = time
    }

    /// The remote error an `error` event describes; `nil` for the other kinds.
    ///
    /// The location is the line's `code.filepath`, with `code.lineno` (0 when absent) and `code.function` (empty
    /// when absent); without `code.filepath` there is none.
    public init?(_ event: WireEvent) {
        guard event.kind == .error, let typeName = event.exceptionType else { return nil }
        let category = event.category ?? .unrecoverable
        let location = event.codeFilePath.map { file in
            CodeLocation(
                file: file, line: UInt(clamping: max(0, event.codeLineNumber ?? 0)), function: event.codeFunction ?? "")
        }
        self.init(
            typeName: typeName, message: event.exceptionMessage ?? "", code: event.code ?? ErrorCode("X", 0),
            category: category, userMessage: event.userMessage, severity: event.severity,
            serviceName: event.serviceName, stackTrace: event.exceptionStacktrace, sourceLocation: location,
            pid: event.pid, hostName: event.hostName, time: event.time)
        traceID = event.traceID
        spanID = event.spanID
        serviceVersion = event.serviceVersion
        environment = event.deploymentEnvironment
        producerFingerprint = event.fingerprint
    }

    /// The producer's message as sent (the type is shown beside it, from ``typeName``), or the type name alone.
    public var technicalMessage: String { message.isEmpty ? typeName : message }

    /// The producer's own ``producerFingerprint`` when it sent one; otherwise `"<remote type>#<code>"`: errors of one
    /// remote type and code share an alert.
    public var fingerprint: String {
        producerFingerprint ?? Classification.fingerprint(typeName: typeName, code: code)
    }

    /// `"<remote type>: <message>"`, or the type name alone.
    public var description: String { message.isEmpty ? typeName : "\(typeName): \(message)" }
}

extension WireEvent {
    /// The context to add a remote error with: source (the producer's component, else its service name),
    /// severity, origin, attempt, and the attributes as metadata. The service, process and host are not copied
    /// into the metadata: ``RemoteError`` carries them.
    public var errorContext: ErrorContext {
        ErrorContext(
            source: source ?? serviceName ?? "remote", severity: effectiveSeverity, origin: origin ?? .user,
            attempt: attempt, metadata: attributes)
    }
}
