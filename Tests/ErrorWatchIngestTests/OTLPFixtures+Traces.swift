import Foundation

@testable import ErrorWatchIngest

/// Builders for OTLP trace messages.
extension OTLPFixtures {
    /// The trace id every fixture span shares unless told otherwise: 00 01 … 0f.
    static let traceID = Data((0..<16).map { UInt8($0) })
    /// The same id as OTLP/JSON and the wire write it.
    static let traceHex = "000102030405060708090a0b0c0d0e0f"

    /// An 8-byte span id ending in `n`.
    static func spanID(_ n: UInt8) -> Data { Data([0, 0, 0, 0, 0, 0, 0xAB, n]) }

    /// A span of `trace` with id `id`, parent `parent` (none when `nil`), 1 s from 1,700,000,000 s.
    static func span(
        _ name: String, id: UInt8, parent: UInt8? = nil, trace: Data = traceID, kind: OTLPProtoTraceSpan.SpanKind = .internal,
        status: OTLPProtoTraceStatus.StatusCode = .unset, statusMessage: String = "",
        exceptions: [(type: String, message: String)] = [], attributes: [OTLPProtoKeyValue] = []
    ) -> OTLPProtoTraceSpan {
        var span = OTLPProtoTraceSpan()
        span.traceID = trace
        span.spanID = spanID(id)
        if let parent { span.parentSpanID = spanID(parent) }
        span.name = name
        span.kind = kind
        span.startTimeUnixNano = 1_700_000_000_000_000_000 + UInt64(id) * 1_000_000
        span.endTimeUnixNano = span.startTimeUnixNano + 1_000_000_000
        span.status.code = status
        span.status.message = statusMessage
        span.attributes = attributes
        span.events = exceptions.map { exception in
            var event = OTLPProtoTraceSpan.Event()
            event.name = "exception"
            event.timeUnixNano = span.startTimeUnixNano + 500_000_000
            event.attributes = [
                string("exception.type", exception.type), string("exception.message", exception.message),
                string("exception.stacktrace", "Traceback (most recent call last):\n  File \"\(name).py\", line 7"),
                string("exception.escaped", "True"),
            ]
            return event
        }
        return span
    }

    /// A request with one resource (`service.version` 2.4.1, `deployment.environment.name` staging) and `spans`.
    static func traces(_ spans: [OTLPProtoTraceSpan], resource: OTLPProtoResource = traceResource())
        -> OTLPProtoExportTraceServiceRequest
    {
        var scopeSpans = OTLPProtoTraceScopeSpans()
        scopeSpans.scope.name = "checkout-tracer"
        scopeSpans.spans = spans
        var resourceSpans = OTLPProtoTraceResourceSpans()
        resourceSpans.resource = resource
        resourceSpans.scopeSpans = [scopeSpans]
        var request = OTLPProtoExportTraceServiceRequest()
        request.resourceSpans = [resourceSpans]
        return request
    }

    /// ``resource(service:instance:pid:)`` with a release and an environment.
    static func traceResource(service: String = "shop") -> OTLPProtoResource {
        var resource = resource(service: service)
        resource.attributes += [string("service.version", "2.4.1"), string("deployment.environment.name", "staging")]
        return resource
    }
}
