import ErrorWatchWire
import ErrorStreaming
import Foundation

/// What one export request became: the events of each resource, and what was rejected and why.
struct OTLPMappedBatch: Sendable {
    /// One resource's share of the request.
    struct Group: Sendable {
        var identity: OTLPResourceIdentity
        /// Log records, data points or spans received from this resource (accepted or not).
        var records: Int = 0
        /// Of them, rejected.
        var rejected: Int = 0
        /// Parts of accepted records left unread (a span's `exception` events past the limit): counted in the
        /// sender's row, not in `partial_success`, since the record itself was accepted.
        var dropped: Int = 0
        var events: [WireEvent] = []
        /// The accepted spans of a trace export.
        var spans: [TraceSpan] = []
    }

    var groups: [Group] = []
    /// Records (log records, data points or spans) rejected in the whole request.
    var rejected: Int { groups.reduce(0) { $0 + $1.rejected } }
    /// Why the last rejected record was rejected.
    var rejectionMessage: String?
    /// What the last dropped part was.
    var droppedMessage: String?
    /// Every event, in request order.
    var events: [WireEvent] { groups.flatMap(\.events) }
}

/// Maps OTLP log records onto ``WireEvent``s, following OpenTelemetry's semantic conventions (docs/otlp.md).
///
/// A record with an `exception.type` or `exception.message` attribute is an error; any other record is a log line.
enum OTLPLogMapper {
    /// The record attributes read into the wire event's own members, by OpenTelemetry name: the wire's own names
    /// (which are the older semantic conventions') and the current conventions' `code.*` names; every other
    /// attribute stays an attribute.
    static let attributeMembers: [String: WireMember] = {
        let members: [WireMember] = [
            .exceptionType, .exceptionMessage, .exceptionStacktrace, .codeFilePath, .codeLineNumber, .codeFunction,
        ]
        var table = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
        table["code.file.path"] = .codeFilePath
        table["code.line.number"] = .codeLineNumber
        table["code.function.name"] = .codeFunction
        return table
    }()

    /// The `exception.type` of an error record that has only an `exception.message`.
    static let unnamedExceptionType = "Exception"

    /// The events of every record of `request`; `receivedAt` stands in for records without a time.
    static func map(_ request: OTLPProtoExportLogsServiceRequest, receivedAt: Date) -> OTLPMappedBatch {
        var batch = OTLPMappedBatch()
        for resourceLogs in request.resourceLogs {
            let identity = OTLPResourceIdentity(resourceLogs.resource)
            var group = OTLPMappedBatch.Group(identity: identity)
            for scopeLogs in resourceLogs.scopeLogs {
                for record in scopeLogs.logRecords {
                    group.records += 1
                    if let event = event(record, scope: scopeLogs.scope.name, identity: identity, at: receivedAt) {
                        group.events.append(event)
                    } else {
                        group.rejected += 1
                        batch.rejectionMessage = "log records with no body and no attributes carry nothing to show"
                    }
                }
            }
            batch.groups.append(group)
        }
        return batch
    }

    /// One record's event; `nil` for a record with neither a body nor attributes.
    static func event(
        _ record: OTLPProtoLogRecord, scope: String, identity: OTLPResourceIdentity, at receivedAt: Date
    ) -> WireEvent? {
        guard record.hasBody || !record.attributes.isEmpty else { return nil }
        var exceptionType: String?
        var exceptionMessage: String?
        var stacktrace: String?
        var filePath: String?
        var line: Int?
        var function: String?
        var others: [OTLPProtoKeyValue] = []
        others.reserveCapacity(min(record.attributes.count, OTLPAttributes.maximumCount))
        for pair in record.attributes {
            switch attributeMembers[pair.key] {
            case .exceptionType?: exceptionType = OTLPAttributes.render(pair.value)
            case .exceptionMessage?: exceptionMessage = OTLPAttributes.render(pair.value)
            case .exceptionStacktrace?: stacktrace = OTLPAttributes.render(pair.value)
            case .codeFilePath?: filePath = OTLPAttributes.render(pair.value)
            case .codeLineNumber?: line = Int(OTLPAttributes.render(pair.value))
            case .codeFunction?: function = OTLPAttributes.render(pair.value)
            default: others.append(pair)
            }
        }
        var attributes: [String: String] = [:]
        if let instance = identity.instanceID { attributes["service.instance.id"] = instance }
        let dropped = OTLPAttributes.merge(others, into: &attributes) + Int(record.droppedAttributesCount)
        if dropped > 0 { attributes["otlp.dropped_attributes"] = String(dropped) }
        let isError = exceptionType != nil || exceptionMessage != nil
        // A log event needs a body to be read back (a recording of it must replay): a record that has only
        // attributes gets an empty one.
        let body = record.hasBody ? OTLPAttributes.render(record.body) : (isError ? nil : "")
        var event = WireEvent(
            kind: isError ? .error : .log, time: time(record, receivedAt), serviceName: identity.serviceName,
            pid: identity.pid, hostName: identity.hostName, source: scope.isEmpty ? nil : scope,
            exceptionType: isError ? (exceptionType ?? unnamedExceptionType) : nil,
            exceptionMessage: exceptionMessage.map { clip($0, OTLPAttributes.maximumMessageLength) },
            severity: severity(number: record.severityNumber.rawValue, text: record.severityText),
            attributes: attributes,
            body: body.map { clip($0, OTLPAttributes.maximumMessageLength) },
            exceptionStacktrace: stacktrace.map { clip($0, OTLPAttributes.maximumStacktraceLength) },
            codeFilePath: filePath, codeLineNumber: line, codeFunction: function)
        // The record's trace context, typed: a trace id of 16 bytes and a span id of 8 (any other length is not an
        // id, and is kept as an attribute, in hex, as sent).
        if !record.traceID.isEmpty {
            if record.traceID.count == 16 {
                event.traceID = OTLPAttributes.hex(record.traceID)
            } else {
                event.attributes["trace_id"] = OTLPAttributes.hex(record.traceID)
            }
        }
        if !record.spanID.isEmpty {
            if record.spanID.count == 8 {
                event.spanID = OTLPAttributes.hex(record.spanID)
            } else {
                event.attributes["span_id"] = OTLPAttributes.hex(record.spanID)
            }
        }
        identity.stamp(&event)
        return event
    }

    private static func clip(_ text: String, _ limit: Int) -> String { OTLPAttributes.clipped(text, to: limit) }

    /// `time_unix_nano`, else `observed_time_unix_nano`, else when the request arrived.
    static func time(_ record: OTLPProtoLogRecord, _ receivedAt: Date) -> Date {
        let nanos = record.timeUnixNano != 0 ? record.timeUnixNano : record.observedTimeUnixNano
        return nanos == 0 ? receivedAt : date(unixNanos: nanos)
    }

    /// A date from nanoseconds since 1970.
    static func date(unixNanos: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(unixNanos / 1_000_000_000) + Double(unixNanos % 1_000_000_000) / 1e9)
    }

    /// The severity of a record: from `severity_number` (TRACE and DEBUG → debug, INFO → info, WARN → warning,
    /// ERROR → error, FATAL → critical), else from `severity_text`; `nil` when neither says.
    static func severity(number: Int, text: String) -> ErrorSeverity? {
        switch number {
        case 1...8: return .debug
        case 9...12: return .info
        case 13...16: return .warning
        case 17...20: return .error
        case 21...24: return .critical
        default: break
        }
        switch text.lowercased() {
        case "trace", "debug": return .debug
        case "info", "information": return .info
        case "notice": return .notice
        case "warn", "warning": return .warning
        case "error", "err": return .error
        case "fatal", "critical", "crit", "alert", "emergency": return .critical
        default: return nil
        }
    }
}
