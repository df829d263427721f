import ErrorWatchWire
import Foundation

/// Builds OTLP `ExportTraceServiceRequest` bodies from plain parameters, and reads the answer's `partial_success`,
/// through the generated protobuf types (which stay internal to this module).
///
/// For this package's own load generator (`errorwatch-load --otlp --signals traces`) and tests: `package`, not
/// public, because it is a tool for driving the receiver, not an OpenTelemetry SDK.
///
/// ```swift
/// let root = OTLPTracesRequestBody.Span(id: [0, 0, 0, 0, 0, 0, 0, 1], name: "POST /checkout", kind: .server,
///     start: 1_700_000_000_000_000_000, end: 1_700_000_000_050_000_000)
/// let body = OTLPTracesRequestBody.protobuf(service: "shop", instance: "shop-1", scope: "checkout",
///     traces: [.init(id: Array(repeating: 1, count: 16), spans: [root])])
/// // POST body to /v1/traces, or call TraceService/Export with it
/// ```
package enum OTLPTracesRequestBody {
    /// A span's kind, as OTLP numbers them.
    package enum Kind: Int, Sendable {
        case `internal` = 1
        case server = 2
        case client = 3
        case producer = 4
        case consumer = 5
    }

    /// One span: its id (8 bytes), its parent's (none for a root), name, kind, times in nanoseconds since 1970,
    /// string attributes, an ERROR status with its description when `error` is set, and an `exception` event (at
    /// `exceptionTime`) when `exception` is set.
    package struct Span: Sendable, Hashable {
        package var id: [UInt8]
        package var parent: [UInt8]?
        package var name: String
        package var kind: Kind
        package var start: UInt64
        package var end: UInt64
        package var attributes: [String: String]
        package var error: String?
        package var exception: OTLPLogsRequestBody.Exception?
        package var exceptionTime: UInt64

        package init(
            id: [UInt8], parent: [UInt8]? = nil, name: String, kind: Kind = .internal, start: UInt64, end: UInt64,
            attributes: [String: String] = [:], error: String? = nil, exception: OTLPLogsRequestBody.Exception? = nil,
            exceptionTime: UInt64? = nil
        ) {
            self.id = id
            self.parent = parent
            self.name = name
            self.kind = kind
            self.start = start
            self.end = end
            self.attributes = attributes
            self.error = error
            self.exception = exception
            self.exceptionTime = exceptionTime ?? end
        }
    }

    /// One trace: its id (16 bytes) and spans.
    package struct Trace: Sendable, Hashable {
        package var id: [UInt8]
        package var spans: [Span]

        package init(id: [UInt8], spans: [Span]) {
            self.id = id
            self.spans = spans
        }
    }

    /// A binary protobuf `ExportTraceServiceRequest` with one resource (`service.name`, and `service.instance.id`
    /// when `instance` is given) and one scope holding the spans of `traces`, in order.
    package static func protobuf(service: String, instance: String?, scope: String, traces: [Trace]) -> [UInt8] {
        var resource = OTLPProtoResource()
        resource.attributes.append(keyValue("service.name", service))
        if let instance { resource.attributes.append(keyValue("service.instance.id", instance)) }
        var scopeSpans = OTLPProtoTraceScopeSpans()
        scopeSpans.scope.name = scope
        scopeSpans.spans = traces.flatMap { trace in trace.spans.map { span(of: trace.id, $0) } }
        var resourceSpans = OTLPProtoTraceResourceSpans()
        resourceSpans.resource = resource
        resourceSpans.scopeSpans = [scopeSpans]
        var request = OTLPProtoExportTraceServiceRequest()
        request.resourceSpans = [resourceSpans]
        // Serializing a message built only from valid strings, bytes and numbers cannot fail.
        return (try? request.serializedBytes()) ?? []
    }

    /// `rejected_spans` of a binary protobuf `ExportTraceServiceResponse`: 0 when it has no `partial_success`,
    /// `nil` when the body does not decode.
    package static func rejectedSpans(inResponse body: [UInt8]) -> Int64? {
        guard let response = try? OTLPProtoExportTraceServiceResponse(serializedBytes: body) else { return nil }
        return response.partialSuccess.rejectedSpans
    }

    private static func span(of trace: [UInt8], _ span: Span) -> OTLPProtoTraceSpan {
        var proto = OTLPProtoTraceSpan()
        proto.traceID = Data(trace)
        proto.spanID = Data(span.id)
        if let parent = span.parent { proto.parentSpanID = Data(parent) }
        proto.name = span.name
        proto.kind = OTLPProtoTraceSpan.SpanKind(rawValue: span.kind.rawValue) ?? .internal
        proto.startTimeUnixNano = span.start
        proto.endTimeUnixNano = span.end
        proto.attributes = span.attributes.sorted { $0.key < $1.key }.map { keyValue($0.key, $0.value) }
        if let error = span.error {
            proto.status.code = .error
            proto.status.message = error
        }
        if let exception = span.exception {
            var event = OTLPProtoTraceSpan.Event()
            event.name = "exception"
            event.timeUnixNano = span.exceptionTime
            event.attributes = [
                keyValue(WireMember.exceptionType.name, exception.type),
                keyValue(WireMember.exceptionMessage.name, exception.message),
                keyValue(WireMember.exceptionStacktrace.name, exception.stacktrace),
            ]
            proto.events = [event]
        }
        return proto
    }

    private static func keyValue(_ key: String, _ value: String) -> OTLPProtoKeyValue {
        var pair = OTLPProtoKeyValue()
        pair.key = key
        pair.value.stringValue = value
        return pair
    }
}
