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
    /// The stable code: the producer's code read as an ``ErrorCode`` when it is one, else `X-0` (for
    /// ``Classification``; what is shown is ``codeText``).
    public var code: ErrorCode
    /// The code exactly as the producer sent it (`L-042`, `40001`, `ERR_CONN_RESET`); `nil` when it sent none.
    public var codeText: String?
    /// The category; `unrecoverable` for ``Classification`` when the producer sent none, in which case
    /// ``isClassified`` is `false` and the dashboard shows it as unclassified.
    public var category: ErrorCategory
    /// Whether the producer said which category the error is.
    public var isClassified: Bool
    /// The sentence for the user: the producer's; empty when an event's producer sent none (nothing is invented).
    public var userMessage: String
    /// A log-derived error's own sentence (the line's `msg`, `event`, rendered `@mt`…) when its ``message`` is the
    /// exception's and says something else: the `body` of an error event.
    public var logMessage: String?
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
    /// The kind of way in that read it (a file, a connection, an exporter); set by the receiver, `nil` until then.
    public var channel: EventChannel?
    /// Whether the producer said whether a user caused it or it happened in the background (`origin`): when it did
    /// not, the dashboard treats it as a user's (it alerts) but never shows an origin nobody sent.
    public var originSent = true
    /// Whether an earlier reading of the same file already counted this error in the store (its line lies before
    /// the file's mark): it is shown again, never counted twice. Set by the receiver; `false` for anything new.
    public var countedBefore = false
    /// What an error reporter SDK sent beyond the wire members (exception chain, frames with source lines and
    /// variables, tags, contexts, breadcrumbs); set by the receivers that read such reports (Sentry), else `nil`.
    public var report: ExceptionReport?

    /// Creates a remote error from its parts. A `code` other than `X-0` is its ``codeText``; `source` is the
    /// component that reported it, part of its fingerprint.
    public init(
        typeName: String, message: String, code: ErrorCode = ErrorCode("X", 0),
        category: ErrorCategory = .unrecoverable, userMessage: String? = nil, severity: ErrorSeverity? = nil,
        serviceName: String? = nil, stackTrace: String? = nil, sourceLocation: CodeLocation? = nil,
        pid: Int? = nil, hostName: String? = nil, time: Date? = nil, source: String? = nil
    ) {
        self.typeName = typeName
        self.message = message
        self.code = code
        self.codeText = code == ErrorCode("X", 0) ? nil : code.description
        self.category = category
        self.isClassified = true
        self.userMessage = userMessage ?? category.defaultUserMessage
        self.severity = severity ?? category.defaultSeverity
        self.serviceName = serviceName
        self.stackTrace = stackTrace
        self.sourceLocation = sourceLocation
        self.pid = pid
        self.hostName = hostName
        self.time = time
        self.templateFingerprint = Fingerprint.make(
            typeName: typeName, code: codeText, source: source, logMessage: nil, message: message)
    }

    /// The remote error an `error` event describes; `nil` for the other kinds.
    ///
    /// The location is the line's `code.filepath`, with `code.lineno` (0 when absent) and `code.function` (empty
    /// when absent); without `code.filepath` there is none.
    ///
    /// What the producer did not send stays unsent: no code (``codeText`` is `nil`), no category (``isClassified``
    /// is `false`), no user message (empty), and the severity the line gave, else `error`. The fingerprint is
    /// made once, here.
    public init?(_ event: WireEvent) {
        guard event.kind == .error, let typeName = event.exceptionType else { return nil }
        self.typeName = typeName
        let message = event.exceptionMessage ?? ""
        self.message = message
        code = event.code ?? ErrorCode("X", 0)
        codeText = event.shownCode
        category = event.category ?? .unrecoverable
        isClassified = event.category != nil
        userMessage = event.userMessage ?? ""
        severity = event.severity ?? event.category?.defaultSeverity ?? .error
        serviceName = event.serviceName
        stackTrace = event.exceptionStacktrace
        sourceLocation = event.codeFilePath.map { file in
            CodeLocation(
                file: file, line: UInt(clamping: max(0, event.codeLineNumber ?? 0)), function: event.codeFunction ?? "")
        }
        pid = event.pid
        hostName = event.hostName
        time = event.time
        traceID = event.traceID
        spanID = event.spanID
        serviceVersion = event.serviceVersion
        environment = event.deploymentEnvironment
        producerFingerprint = event.fingerprint
        report = event.report
        originSent = event.origin != nil
        if let body = event.body, !body.isEmpty, body != message { logMessage = body }
        templateFingerprint = Fingerprint.make(
            typeName: typeName, code: codeText, source: event.source, logMessage: logMessage, message: message)
    }

    /// The fingerprint made from what failed, used when the producer sent none of its own: made once, when the
    /// error is made, from its type, code, source and messages (``Fingerprint/make(typeName:code:source:logMessage:message:)``).
    public private(set) var templateFingerprint: String

    /// ``Fingerprint/make(typeName:code:source:logMessage:message:)``: the type name and code as sent, the
    /// component that reported it, and the template of the messages (numbers, ids, addresses, quoted strings,
    /// paths and e-mail addresses masked). Stable across runs and processes, so a store can key issues by it.
    ///
    /// ```swift
    /// RemoteError.fingerprint(typeName: "Error", code: nil, logMessage: nil, message: "row 12 changed")
    /// // "Error###row <num> changed"
    /// ```
    public static func fingerprint(
        typeName: String, code: String?, source: String? = nil, logMessage: String?, message: String
    ) -> String {
        Fingerprint.make(typeName: typeName, code: code, source: source, logMessage: logMessage, message: message)
    }

    /// The producer's message as sent (the type is shown beside it, from ``typeName``), or the type name alone.
    public var technicalMessage: String { message.isEmpty ? typeName : message }

    /// The producer's own ``producerFingerprint`` when it sent one; otherwise ``templateFingerprint``: errors of one
    /// type and code whose messages differ only in ids, numbers and the like share an alert and an issue.
    public var fingerprint: String { producerFingerprint ?? templateFingerprint }

    /// `"<remote type>: <message>"`, or the type name alone.
    public var description: String { message.isEmpty ? typeName : "\(typeName): \(message)" }
}

extension WireEvent {
    /// The context to add a remote error with: source (the producer's component; empty when it named none),
    /// severity, origin (user when the producer did not say, so that it alerts; ``RemoteError`` keeps whether it
    /// said), attempt, and the attributes as metadata. The service, process and host are not copied into the
    /// metadata: ``RemoteError`` carries them.
    public var errorContext: ErrorContext {
        ErrorContext(
            source: source ?? "", severity: effectiveSeverity, origin: origin ?? .user, attempt: attempt,
            metadata: attributes)
    }
}
