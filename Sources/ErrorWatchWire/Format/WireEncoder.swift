import ErrorStreaming
import Foundation
import Logging

/// Turns events into lines of the wire format: one JSON object and a newline.
///
/// ```swift
/// let encoder = WireEncoder(source: SourceInfo(serviceName: "shop"))
/// for await event in stream.events { send(try encoder.encode(event)) }
/// ```
public struct WireEncoder: Sendable {
    /// The producer written into every event made here.
    public var source: SourceInfo? {
        didSet { stamp = source.map(Self.stamp(for:)) }
    }
    /// The producer's members as bytes, for ``appendLine(for:to:)``.
    private(set) var stamp: [UInt8]?
    /// The longest line written, newline included: the wire format's 64 KiB, or a recording's longer limit.
    public var maximumLineBytes = LineFramer.defaultMaximumLineBytes

    /// Creates an encoder; `source` fills `service.name`, `process.pid` and `host.name`.
    public init(source: SourceInfo? = nil) {
        self.source = source
        self.stamp = source.map(Self.stamp(for:))
    }

    /// One line (JSON and `\n`) for a wire event. Throws ``WireError/lineTooLong(byteCount:)`` when the
    /// line would exceed ``maximumLineBytes``.
    public func encode(_ event: WireEvent) throws(WireError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        try event.writeJSON(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        guard bytes.count <= maximumLineBytes else {
            throw WireError.lineTooLong(byteCount: bytes.count)
        }
        return bytes
    }

    /// One line for an ``ErrorEvent`` of a stream: the line of ``wireEvent(for:)``, written without building it.
    public func encode(_ event: ErrorEvent) throws(WireError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        try appendLine(for: event, to: &bytes)
        return bytes
    }

    /// The wire event for an ``ErrorEvent``: its ``Classification`` gives the type, code, category and
    /// messages; its context the source, severity, origin, attempt and attributes; its ``ErrorEvent/location``
    /// `code.filepath`, `code.lineno` and `code.function`. A relayed ``RemoteError`` keeps its producer's type,
    /// message, stack trace and location.
    public func wireEvent(for event: ErrorEvent) -> WireEvent {
        let classification = Classification(of: event.error)
        let remote =
            event.context.remote ?? (type(of: event.error) == RemoteError.self ? event.error as? RemoteError : nil)
        let location = event.location
        let function = location?.function
        return WireEvent(
            kind: .error, time: event.timestamp, serviceName: source?.serviceName ?? remote?.provenance.service,
            pid: source?.pid, hostName: source?.host, source: event.source,
            exceptionType: remote?.typeName ?? classification.typeName,
            exceptionMessage: remote?.message ?? classification.technicalMessage,
            userMessage: classification.userMessage, code: classification.code, category: classification.category,
            severity: event.severity, origin: event.origin, attempt: event.context.attempt,
            sequence: event.sequence, attributes: event.metadata, exceptionStacktrace: remote?.stackTrace,
            codeFilePath: location?.file, codeLineNumber: location.map { Int(clamping: $0.line) },
            codeFunction: function?.isEmpty == false ? function : nil,
            fingerprint: remote.map { $0.producerFingerprint } ?? classification.fingerprint)
    }

    /// The wire event for a handler tree's ``HandlingReport``: kind `handling`, the report's sequence (the
    /// producer's sequence of the error's event), its path, outcome words and `handled`, stamped with this
    /// encoder's source. A path longer than ``WireEvent/maximumHandlingPathCount`` keeps its last entries, the
    /// ones nearest the node that consumed the error.
    ///
    /// ```swift
    /// for await report in stream.handlingReports() {
    ///     forwarder.send(encoder.handlingEvent(for: report, time: Date()))
    /// }
    /// ```
    public func handlingEvent(for report: HandlingReport, time: Date) -> WireEvent {
        WireEvent(
            kind: .handling, time: time, serviceName: source?.serviceName, pid: source?.pid, hostName: source?.host,
            sequence: report.sequence, handlingPath: Array(report.path.suffix(WireEvent.maximumHandlingPathCount)),
            handlingOutcome: report.outcome.description, handlingHandled: report.handled)
    }

    /// The wire event for a swift-log record: kind `log`, the message as `body`, metadata as attributes. A record
    /// that carries an error also names its type (`exception.type`) and code.
    public func wireEvent(
        level: Logger.Level, message: String, label: String, metadata: [String: String], error: (any Error)? = nil,
        time: Date
    ) -> WireEvent {
        var event = WireEvent(
            kind: .log, time: time, serviceName: source?.serviceName, pid: source?.pid, hostName: source?.host,
            source: label, severity: ErrorSeverity(level), attributes: metadata, body: message)
        if let error {
            let classification = Classification(of: error)
            event.exceptionType = classification.typeName
            event.exceptionMessage = classification.technicalMessage
            event.code = classification.code
            event.category = classification.category
        }
        return event
    }

    /// The wire event for a producer's named status: kind `status`, stamped with this encoder's source. A receiver
    /// keeps the latest status per service and name, so publish again whenever the state or health changes.
    ///
    /// ```swift
    /// let event = encoder.statusEvent(name: "reconciler", state: "running", health: .ok, detail: "pass 7 of 9",
    ///     time: Date())
    /// forwarder.send(event)
    /// ```
    public func statusEvent(
        name: String, state: String, health: StatusHealth, detail: String?, time: Date
    ) -> WireEvent {
        WireEvent(
            kind: .status, time: time, serviceName: source?.serviceName, pid: source?.pid, hostName: source?.host,
            statusName: name, statusState: state, statusHealth: health, statusDetail: detail)
    }

    /// The wire event for one metric sample: kind `metric`, the kind always written, dimensions as attributes.
    ///
    /// ```swift
    /// let event = encoder.metricEvent(
    ///     name: "http.server.duration", value: 12.5, kind: .histogram, unit: "ms", dimensions: ["route": "/cart"],
    ///     time: Date())
    /// ```
    public func metricEvent(
        name: String, value: Double, kind: WireMetricKind, unit: String?, dimensions: [String: String], time: Date
    ) -> WireEvent {
        WireEvent(
            kind: .metric, time: time, serviceName: source?.serviceName, pid: source?.pid, hostName: source?.host,
            attributes: dimensions, metricName: name, metricValue: value, metricUnit: unit, metricKind: kind)
    }
}

extension ErrorSeverity {
    /// The severity for a swift-log level; `trace` is `debug`.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension LogEvent {
    /// The metadata a handler writes for this event: its own, then its provider's, then the call's, later ones
    /// winning, as strings.
    public func mergedMetadata(
        handler: Logger.Metadata, provider: Logger.MetadataProvider?
    ) -> [String: String] {
        var merged = handler
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = metadata { merged.merge(extra) { _, new in new } }
        return merged.mapValues { "\($0)" }
    }
}
