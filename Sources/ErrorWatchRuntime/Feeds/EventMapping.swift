import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

extension DashboardEvent {
    /// The `Logs` pane's view of a stream event: classified, with the short type name. A remote error is read from
    /// its context: its words, codes and times as its producer sent them, and its provenance as it is.
    public init(_ event: ErrorEvent) {
        if let remote = event.context.remote {
            self.init(remote, sequence: event.sequence, context: event.context)
            return
        }
        let classification = Classification(of: event.error)
        let userMessage = classification.userMessage.isEmpty ? nil : classification.userMessage
        self.init(
            sequence: event.sequence, timestamp: event.timestamp, kind: .error, level: event.severity,
            source: event.source, typeName: Self.shortTypeName(classification.typeName),
            message: classification.technicalMessage, userMessage: userMessage, code: classification.code,
            category: classification.category, origin: event.origin, attempt: event.context.attempt,
            metadata: event.metadata, qualifiedTypeName: classification.typeName,
            fingerprint: classification.fingerprint, location: event.location)
    }

    /// The `Logs` pane's view of an error another process reported: what it did not send stays unsent (no code, no
    /// category, no user message).
    init(_ remote: RemoteError, sequence: UInt64, context: ErrorContext) {
        self.init(
            sequence: sequence, timestamp: remote.provenance.time, kind: .error, level: context.severity,
            source: context.source, typeName: Self.shortTypeName(remote.typeName), message: remote.technicalMessage,
            userMessage: remote.userMessage.isEmpty ? nil : remote.userMessage,
            category: remote.isClassified ? remote.category : nil, origin: context.origin, attempt: context.attempt,
            metadata: context.metadata, qualifiedTypeName: remote.typeName, fingerprint: remote.fingerprint,
            stackTrace: remote.stackTrace, location: remote.sourceLocation, logMessage: remote.logMessage,
            codeText: remote.codeText, provenance: remote.provenance)
        report = remote.report
    }

    /// The `Logs` pane's view of a log line from outside: its own time, level, component, message (else its
    /// exception's), as sent, and where it came from.
    init(log event: WireEvent, provenance: Provenance) {
        self.init(
            sequence: 0, timestamp: event.time, kind: .log, level: event.effectiveSeverity, source: event.source ?? "",
            typeName: event.exceptionType.map(Self.shortTypeName) ?? "",
            message: event.body ?? event.exceptionMessage ?? "", code: nil, category: event.category,
            origin: event.origin ?? .user, attempt: event.attempt, metadata: event.attributes,
            qualifiedTypeName: event.exceptionType ?? "", codeText: event.shownCode, provenance: provenance)
    }

    /// The `Logs` pane's view of a swift-log record.
    public init(_ record: DashboardLogHandler.Record) {
        self.init(
            sequence: 0, timestamp: record.timestamp, kind: .log, level: ErrorSeverity(record.level),
            source: record.label, typeName: "", message: record.message, metadata: record.metadata)
    }

    /// `ErrorWatchDemo.AuthError` → `AuthError`; `Swift.DecodingError` → `DecodingError`. Generic arguments stay.
    /// Read as UTF-8 bytes (`<` and `.` are ASCII): this runs for every error counted, and a search by `Character`
    /// had cost 4% of the adding thread under a socket storm.
    public static func shortTypeName(_ qualified: String) -> String {
        let bytes = qualified.utf8
        let genericStart = bytes.firstIndex(of: UInt8(ascii: "<")) ?? bytes.endIndex
        guard let dot = bytes[..<genericStart].lastIndex(of: UInt8(ascii: ".")) else { return qualified }
        return String(qualified[bytes.index(after: dot)...])
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
