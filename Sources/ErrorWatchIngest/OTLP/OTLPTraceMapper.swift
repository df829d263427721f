import ErrorStreaming
import ErrorWatchWire
import Foundation

/// Maps OTLP spans onto errors and ``TraceSpan``s, following OpenTelemetry's semantic conventions (docs/otlp.md,
/// "Traces"):
/// - every span event named `exception` is an error (`exception.type`, `exception.message`,
///   `exception.stacktrace`), whatever the span's status;
/// - a span with an error status and no `exception` event is an error too: its type is the span's `error.type`
///   attribute, else the span's name; its message the status description;
/// - one failure is one error: ``OTLPTraceMemory`` decides which candidates were already counted.
///
/// A span whose trace id is not 16 bytes, whose span id is not 8 bytes, or whose parent span id is neither empty nor
/// 8 bytes (or any of them all zero) is rejected: counted in `partial_success` and in its sender's row.
enum OTLPTraceMapper {
    /// The span event name that records an exception.
    static let exceptionEventName = "exception"
    /// `exception` events read per span; a span that has more has the rest counted as dropped.
    static let maximumExceptionEventsPerSpan = 32
    /// Characters kept of a span's name.
    static let maximumNameLength = 256
    /// Events and links kept per span (for its detail view); the rest are left out.
    static let maximumEventsPerSpan = 32
    static let maximumLinksPerSpan = 32

    /// The events (errors) and spans of every span of `request`; `receivedAt` stands in for events without a time.
    static func map(
        _ request: OTLPProtoExportTraceServiceRequest, memory: OTLPTraceMemory, receivedAt: Date
    ) -> OTLPMappedBatch {
        var batch = OTLPMappedBatch()
        // Pass 1: check every span and collect its candidate errors; pass 2 (one lock) decides which to count.
        var accepted: [(group: Int, span: OTLPProtoTraceSpan, scope: String, mapped: TraceSpan)] = []
        var candidates: [OTLPTraceMemory.SpanFailures] = []
        for resourceSpans in request.resourceSpans {
            let identity = OTLPResourceIdentity(resourceSpans.resource)
            var group = OTLPMappedBatch.Group(identity: identity)
            for scopeSpans in resourceSpans.scopeSpans {
                for span in scopeSpans.spans {
                    group.records += 1
                    guard let ids = ids(of: span) else {
                        group.rejected += 1
                        batch.rejectionMessage = idProblem(span)
                        continue
                    }
                    let exceptions = span.events.lazy.filter { $0.name == exceptionEventName }
                    let read = Array(exceptions.prefix(maximumExceptionEventsPerSpan))
                    let beyond = exceptions.count - read.count
                    if beyond > 0 {
                        group.dropped += beyond
                        batch.droppedMessage =
                            "a span had \(read.count + beyond) exception events; the first \(read.count) were read"
                    }
                    var failures = read.map { event in
                        let (type, message) = exceptionTypeAndMessage(event.attributes)
                        return OTLPTraceMemory.Failure(
                            origin: .exception, spanID: ids.span, type: type ?? "", message: message ?? "")
                    }
                    if failures.isEmpty, span.status.code == .error {
                        failures.append(
                            OTLPTraceMemory.Failure(
                                origin: .status, spanID: ids.span, type: statusErrorType(span),
                                message: span.status.message))
                    }
                    candidates.append(
                        OTLPTraceMemory.SpanFailures(
                            traceID: ids.trace, spanID: ids.span, parentSpanID: ids.parent, failures: failures))
                    let mapped = TraceSpan(
                        traceID: ids.trace, spanID: ids.span, parentSpanID: ids.parent,
                        name: OTLPAttributes.clipped(span.name, to: maximumNameLength), kind: kind(span.kind),
                        service: identity.serviceName, startUnixNano: span.startTimeUnixNano,
                        endUnixNano: span.endTimeUnixNano, status: status(span.status.code),
                        statusMessage: span.status.message.isEmpty
                            ? nil : OTLPAttributes.clipped(span.status.message, to: OTLPAttributes.maximumValueLength),
                        attributes: attributes(span.attributes), events: events(of: span), links: links(of: span))
                    accepted.append((batch.groups.count, span, scopeSpans.scope.name, mapped))
                }
            }
            batch.groups.append(group)
        }
        let decisions = memory.count(candidates)
        for ((index, span, scope, mapped), (candidate, counts)) in zip(accepted, zip(candidates, decisions)) {
            var mapped = mapped
            let identity = batch.groups[index].identity
            let exceptionEvents = span.events.lazy.filter { $0.name == exceptionEventName }
            for ((failure, count), event) in zip(zip(candidate.failures, counts), exceptionEvents) where count {
                batch.groups[index].events.append(
                    error(exception: event, failure: failure, span: span, mapped: mapped, scope: scope,
                        identity: identity, at: receivedAt))
                mapped.errors += 1
            }
            if let failure = candidate.failures.first, failure.origin == .status, counts.first == true {
                batch.groups[index].events.append(
                    error(exception: nil, failure: failure, span: span, mapped: mapped, scope: scope,
                        identity: identity, at: receivedAt))
                mapped.errors += 1
            }
            batch.groups[index].spans.append(mapped)
        }
        return batch
    }

    /// The span's trace id (hex), span id and parent span id; `nil` when one has the wrong length or is all zero.
    static func ids(of span: OTLPProtoTraceSpan) -> (trace: String, span: UInt64, parent: UInt64?)? {
        guard span.traceID.count == 16, span.traceID.contains(where: { $0 != 0 }),
            let id = spanID(span.spanID), id != 0
        else { return nil }
        let parent: UInt64?
        switch span.parentSpanID.count {
        case 0: parent = nil
        case 8: parent = spanID(span.parentSpanID).flatMap { $0 == 0 ? nil : $0 }
        default: return nil
        }
        return (OTLPAttributes.hex(span.traceID), id, parent)
    }

    private static func spanID(_ bytes: Data) -> UInt64? {
        guard bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Why ``ids(of:)`` refused a span, for `partial_success` and the sender's row.
    static func idProblem(_ span: OTLPProtoTraceSpan) -> String {
        if span.traceID.count != 16 { return "spans with a trace id of \(span.traceID.count) bytes (16 expected)" }
        if span.spanID.count != 8 { return "spans with a span id of \(span.spanID.count) bytes (8 expected)" }
        if span.parentSpanID.count != 0, span.parentSpanID.count != 8 {
            return "spans with a parent span id of \(span.parentSpanID.count) bytes (8 or none expected)"
        }
        return "spans with an all-zero trace or span id (invalid)"
    }

    /// `exception.type` and `exception.message` of an event's attributes.
    static func exceptionTypeAndMessage(_ attributes: [OTLPProtoKeyValue]) -> (String?, String?) {
        var type: String?
        var message: String?
        for pair in attributes {
            switch pair.key {
            case WireMember.exceptionType.name: type = OTLPAttributes.render(pair.value)
            case WireMember.exceptionMessage.name: message = OTLPAttributes.render(pair.value)
            default: break
            }
        }
        return (type, message)
    }

    /// The type of an error status without an exception: the span's `error.type`, else its name.
    static func statusErrorType(_ span: OTLPProtoTraceSpan) -> String {
        let declared = span.attributes.first { $0.key == "error.type" }.map { OTLPAttributes.render($0.value) }
        guard let declared, !declared.isEmpty else { return span.name.isEmpty ? "(unnamed span)" : span.name }
        return declared
    }

    /// One error: an exception event's, or (`exception` nil) an error status's.
    static func error(
        exception: OTLPProtoTraceSpan.Event?, failure: OTLPTraceMemory.Failure, span: OTLPProtoTraceSpan,
        mapped: TraceSpan, scope: String, identity: OTLPResourceIdentity, at receivedAt: Date
    ) -> WireEvent {
        var attributes: [String: String] = [:]
        var stacktrace: String?
        var dropped = 0
        if let exception {
            var others: [OTLPProtoKeyValue] = []
            for pair in exception.attributes {
                switch pair.key {
                case WireMember.exceptionType.name, WireMember.exceptionMessage.name: break
                case WireMember.exceptionStacktrace.name: stacktrace = OTLPAttributes.render(pair.value)
                default: others.append(pair)
                }
            }
            dropped += OTLPAttributes.merge(others, into: &attributes) + Int(exception.droppedAttributesCount)
        }
        attributes["span.name"] = mapped.name
        attributes["span.kind"] = mapped.kind.rawValue
        if let instance = identity.instanceID { attributes["service.instance.id"] = instance }
        dropped += OTLPAttributes.merge(span.attributes, into: &attributes) + Int(span.droppedAttributesCount)
        if dropped > 0 { attributes["otlp.dropped_attributes"] = String(dropped) }
        let nanos = [exception?.timeUnixNano ?? 0, span.endTimeUnixNano, span.startTimeUnixNano].first { $0 != 0 }
        var event = WireEvent(
            kind: .error, time: nanos.map(OTLPLogMapper.date(unixNanos:)) ?? receivedAt,
            serviceName: identity.serviceName, pid: identity.pid, hostName: identity.hostName,
            source: scope.isEmpty ? nil : scope,
            exceptionType: failure.type.isEmpty ? OTLPLogMapper.unnamedExceptionType : failure.type,
            exceptionMessage: failure.message.isEmpty
                ? nil : OTLPAttributes.clipped(failure.message, to: OTLPAttributes.maximumMessageLength),
            attributes: attributes,
            exceptionStacktrace: stacktrace.map { OTLPAttributes.clipped($0, to: OTLPAttributes.maximumStacktraceLength) })
        event.traceID = mapped.traceID
        event.spanID = TraceSpan.hex(mapped.spanID)
        identity.stamp(&event)
        return event
    }

    /// Attributes as a span's detail view shows them: rendered, clipped, at most ``OTLPAttributes/maximumCount``.
    static func attributes(_ pairs: [OTLPProtoKeyValue], stacktrace: Bool = false) -> [String: String] {
        guard !pairs.isEmpty else { return [:] }
        var attributes: [String: String] = [:]
        if stacktrace, let trace = pairs.first(where: { $0.key == WireMember.exceptionStacktrace.name }) {
            // A stack trace is kept longer than other values.
            attributes[trace.key] = OTLPAttributes.clipped(
                OTLPAttributes.render(trace.value), to: OTLPAttributes.maximumStacktraceLength)
        }
        OTLPAttributes.merge(pairs, into: &attributes)
        return attributes
    }

    /// The span's first ``maximumEventsPerSpan`` events.
    static func events(of span: OTLPProtoTraceSpan) -> [TraceSpan.Event] {
        span.events.prefix(maximumEventsPerSpan).map { event in
            TraceSpan.Event(
                name: OTLPAttributes.clipped(event.name, to: maximumNameLength), timeUnixNano: event.timeUnixNano,
                attributes: attributes(event.attributes, stacktrace: event.name == exceptionEventName))
        }
    }

    /// The span's first ``maximumLinksPerSpan`` links whose ids are well formed.
    static func links(of span: OTLPProtoTraceSpan) -> [TraceSpan.Link] {
        span.links.prefix(maximumLinksPerSpan).compactMap { link in
            guard link.traceID.count == 16, let id = spanID(link.spanID) else { return nil }
            return TraceSpan.Link(
                traceID: OTLPAttributes.hex(link.traceID), spanID: id, attributes: attributes(link.attributes))
        }
    }

    static func kind(_ kind: OTLPProtoTraceSpan.SpanKind) -> TraceSpan.Kind {
        switch kind {
        case .internal: .internal
        case .server: .server
        case .client: .client
        case .producer: .producer
        case .consumer: .consumer
        default: .unspecified
        }
    }

    static func status(_ code: OTLPProtoTraceStatus.StatusCode) -> TraceSpan.Status {
        switch code {
        case .ok: .ok
        case .error: .error
        default: .unset
        }
    }
}
