import ErrorStreaming
import Foundation

extension RemoteError {
    /// The remote error an `error` event describes, read from `from` at `receivedAt` through `channel`; `nil` for
    /// the other kinds. Its provenance is made here from the event's members, once.
    ///
    /// The location is the line's `code.filepath`, with `code.lineno` (0 when absent) and `code.function` (empty
    /// when absent); without `code.filepath` there is none. What the producer did not send stays unsent: no code
    /// (``codeText`` is `nil`), no category (``isClassified`` is `false`), no user message (empty), and the severity
    /// the line gave, else `error`.
    public init?(
        _ event: WireEvent, from: String? = nil, receivedAt: Date? = nil, channel: EventChannel? = nil,
        countedBefore: Bool = false
    ) {
        guard event.kind == .error, let typeName = event.exceptionType else { return nil }
        self.init(
            typeName: typeName, message: event.exceptionMessage ?? "", code: event.code ?? ErrorCode("X", 0),
            codeText: .some(event.shownCode), category: event.category, userMessage: event.userMessage ?? "",
            logMessage: event.body, severity: event.severity ?? event.category?.defaultSeverity ?? .error,
            stackTrace: event.exceptionStacktrace,
            sourceLocation: event.codeFilePath.map { file in
                CodeLocation(
                    file: file, line: UInt(clamping: max(0, event.codeLineNumber ?? 0)),
                    function: event.codeFunction ?? "")
            }, report: event.report, producerFingerprint: event.fingerprint, source: event.source,
            provenance: Provenance(
                event, from: from, receivedAt: receivedAt, channel: channel, countedBefore: countedBefore))
    }
}

extension Provenance {
    /// The provenance of a wire event read from `from` at `receivedAt` through `channel`: its time, service,
    /// version, environment, host, process and trace, as sent.
    public init(
        _ event: WireEvent, from: String? = nil, receivedAt: Date? = nil, channel: EventChannel? = nil,
        countedBefore: Bool = false
    ) {
        self.init(
            time: event.time, service: event.serviceName, serviceVersion: event.serviceVersion,
            environment: event.deploymentEnvironment, host: event.hostName, pid: event.pid, traceID: event.traceID,
            spanID: event.spanID, receivedFrom: from, receivedAt: receivedAt, channel: channel,
            originSent: event.origin != nil, countedBefore: countedBefore)
    }
}

extension WireEvent {
    /// The context to add `remote` (this event's error) with: source (the producer's component; empty when it named
    /// none), severity, origin (user when the producer did not say, so that it alerts; its provenance keeps whether
    /// it said), attempt, the attributes as metadata, and the error itself for consumers to read.
    public func errorContext(for remote: RemoteError) -> ErrorContext {
        ErrorContext(
            source: source ?? "", severity: effectiveSeverity, origin: origin ?? .user, attempt: attempt,
            metadata: attributes, remote: remote)
    }

    /// ``errorContext(for:)`` without the remote error: for an app relaying an event into its own stream.
    public var errorContext: ErrorContext {
        ErrorContext(
            source: source ?? "", severity: effectiveSeverity, origin: origin ?? .user, attempt: attempt,
            metadata: attributes)
    }
}
