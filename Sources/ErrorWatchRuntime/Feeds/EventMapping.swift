import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

extension DashboardEvent {
    /// The `Logs` pane's view of a stream event: classified, with the short type name. A remote error keeps its
    /// producer's time, service, process and host, and where and when the dashboard read it.
    public init(_ event: ErrorEvent) {
        // One cast for a remote error (the common case under a flood): its classification, provenance, stack trace
        // and location all come from it.
        let remote = event.error as? RemoteError
        let classification = remote.map { Classification($0) } ?? Classification(of: event.error)
        // What a remote producer did not send stays unsent: no code, no category, no user message.
        let userMessage = classification.userMessage.isEmpty ? nil : classification.userMessage
        self.init(
            sequence: event.sequence, timestamp: remote?.time ?? event.timestamp, kind: .error,
            level: event.severity, source: event.source, typeName: Self.shortTypeName(classification.typeName),
            message: classification.technicalMessage, userMessage: userMessage,
            code: remote == nil ? classification.code : nil,
            category: remote?.isClassified == false ? nil : classification.category, origin: event.origin,
            attempt: event.context.attempt, metadata: event.metadata, qualifiedTypeName: classification.typeName,
            fingerprint: classification.fingerprint, service: remote?.serviceName, from: remote?.receivedFrom,
            stackTrace: remote?.stackTrace, location: remote == nil ? event.location : remote?.sourceLocation,
            pid: remote?.pid, host: remote?.hostName, receivedAt: remote?.receivedAt, traceID: remote?.traceID,
            spanID: remote?.spanID, serviceVersion: remote?.serviceVersion, environment: remote?.environment,
            logMessage: remote?.logMessage, codeText: remote?.codeText)
        report = remote?.report
        channel = remote?.channel
        originSent = remote?.originSent ?? true
    }

    /// The `Logs` pane's view of a log line from outside, read from `from` at `receivedAt`: its own time, level,
    /// component, message (else its exception's), and the producer's service, process and host.
    init(log event: WireEvent, from: String?, channel: EventChannel? = nil, receivedAt: Date) {
        self.init(
            sequence: 0, timestamp: event.time, kind: .log, level: event.effectiveSeverity, source: event.source ?? "",
            typeName: event.exceptionType.map(Self.shortTypeName) ?? "",
            message: event.body ?? event.exceptionMessage ?? "", code: nil, category: event.category,
            origin: event.origin ?? .user, attempt: event.attempt, metadata: event.attributes,
            qualifiedTypeName: event.exceptionType ?? "", service: event.serviceName, from: from, pid: event.pid,
            host: event.hostName, receivedAt: receivedAt, traceID: event.traceID, spanID: event.spanID,
            serviceVersion: event.serviceVersion, environment: event.deploymentEnvironment,
            codeText: event.shownCode)
        self.channel = channel
        originSent = event.origin != nil
    }

    /// The `Logs` pane's view of a swift-log record.
    public init(_ record: DashboardLogHandler.Record) {
        self.init(
            sequence: 0, timestamp: record.timestamp, kind: .log, level: ErrorSeverity(record.level),
            source: record.label, typeName: "", message: record.message, metadata: record.metadata)
    }

    /// `ErrorWatchDemo.AuthError` → `AuthError`; `Swift.DecodingError` → `DecodingError`. Generic arguments stay.
    public static func shortTypeName(_ qualified: String) -> String {
        let genericStart = qualified.firstIndex(of: "<") ?? qualified.endIndex
        guard let dot = qualified[..<genericStart].lastIndex(of: ".") else { return qualified }
        return String(qualified[qualified.index(after: dot)...])
    }
}

extension AlertRecord {
    /// What an alert says: the error's own user message when it has one; otherwise what failed, as the short type
    /// name and the technical message (`PaymentError: gateway answered 503`), because the category's generic
    /// sentence would make every such alert read alike.
    ///
    /// A log-derived error says what failed in both the developer's words and the exception's:
    /// `request failed — UpstreamError: upstream closed`.
    static func title(for classification: Classification, logMessage: String? = nil) -> String {
        guard classification.userMessage.isEmpty || classification.userMessage == classification.category.defaultUserMessage
        else {
            return classification.userMessage
        }
        let what = whatFailed(classification)
        guard let logMessage, !logMessage.isEmpty else { return what }
        return logMessage + " — " + what
    }

    /// The short type name and the technical message: `PaymentError: gateway answered 503`.
    private static func whatFailed(_ classification: Classification) -> String {
        let type = DashboardEvent.shortTypeName(classification.typeName)
        let technical = classification.technicalMessage
        if technical.isEmpty || technical == type || technical == classification.typeName { return type }
        // The default technical message of an unclassified error already starts with its qualified type name.
        for prefix in [classification.typeName + ": ", type + ": "] where technical.hasPrefix(prefix) {
            return type + ": " + technical.dropFirst(prefix.count)
        }
        return type + ": " + technical
    }
}
