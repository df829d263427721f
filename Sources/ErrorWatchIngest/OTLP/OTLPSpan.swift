import Foundation

/// One span as an OTLP receiver hands it on: what the trace view draws (ids, name, kind, service, times, status)
/// and nothing it does not. Ids are the producer's bytes: a trace id of 16 bytes as 32 lower-case hex digits, span
/// ids of 8 bytes as numbers (their hex is ``hex(spanID:)``).
///
/// ```swift
/// let receiver = OTLPReceiver(endpoint: endpoint, onSpans: { source, spans in store.insert(spans) }) { _, _ in }
/// ```
public struct OTLPSpan: Sendable, Hashable {
    /// What side of a call the span is (OTLP's `SpanKind`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The producer did not say (OTLP's `SPAN_KIND_UNSPECIFIED`, and values this receiver does not know).
        case unspecified
        case `internal`
        case server
        case client
        case producer
        case consumer
    }

    /// The span's final status (OTLP's `Status.code`).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Not set (the default), or a code this receiver does not know.
        case unset
        case ok
        case error
    }

    /// The trace, as 32 lower-case hex digits.
    public var traceID: String
    /// The span.
    public var spanID: UInt64
    /// The parent span, `nil` for a root. It may name a span never received, or the span itself: the trace view
    /// copes with both.
    public var parentSpanID: UInt64?
    /// The span's name, as sent (clipped to 256 characters).
    public var name: String
    /// Its kind.
    public var kind: Kind
    /// The resource's `service.name`.
    public var serviceName: String?
    /// Start and end, in nanoseconds since 1970; 0 when the producer sent none.
    public var startUnixNano: UInt64
    public var endUnixNano: UInt64
    /// Its status.
    public var status: Status
    /// The status description, when it has one (only an error status carries one).
    public var statusMessage: String?
    /// How many errors were counted from the span (its `exception` events, or its error status).
    public var errors: Int

    /// A span from its parts.
    public init(
        traceID: String, spanID: UInt64, parentSpanID: UInt64? = nil, name: String, kind: Kind = .internal,
        serviceName: String? = nil, startUnixNano: UInt64 = 0, endUnixNano: UInt64 = 0, status: Status = .unset,
        statusMessage: String? = nil, errors: Int = 0
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.name = name
        self.kind = kind
        self.serviceName = serviceName
        self.startUnixNano = startUnixNano
        self.endUnixNano = endUnixNano
        self.status = status
        self.statusMessage = statusMessage
        self.errors = errors
    }

    /// A span id as 16 lower-case hex digits, the form OTLP/JSON and W3C trace context write.
    public static func hex(spanID: UInt64) -> String {
        let digits = String(spanID, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
