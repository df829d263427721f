import ErrorStreaming

/// One row of the Traces view: what the runtime's trace store holds of one trace, summed up as its spans arrive.
/// Every trace the store holds has one, failing or not; the store sends it again whenever spans of the trace arrive.
///
/// ```swift
/// let summary = TraceSummary(traceID: "4bf92f3577b34da6a3ce929d0e0e4736", arrival: 1, rootName: "POST /pay")
/// summary.durationNanos   // nil: no span with both times yet
/// ```
public struct TraceSummary: Sendable, Hashable {
    /// Distinct services and span names kept per trace, for the row and for queries.
    public static let namesKept = 16

    /// The trace id, 32 lower-case hex digits.
    public var traceID: String
    /// The order in which the store first received a span of the trace (1, 2, …): eviction goes oldest first.
    public var arrival: UInt64
    /// The arrival number of the oldest trace the store held when this summary was made: every trace that arrived
    /// before it has been evicted since, so the view drops those.
    public var heldFrom: UInt64
    /// The name of the root span (the first span without a parent), as sent; while none was received, the first
    /// span's (``rootIsOrphan``); `nil` when no span is kept.
    public var rootName: String?
    /// Whether no span without a parent was received: ``rootName`` is the first span's, whose parent is missing.
    public var rootIsOrphan: Bool
    /// The services of its spans, in order of appearance (at most ``namesKept``; a span without one adds none).
    public var services: [String]
    /// Distinct span names, in order of appearance (at most ``namesKept``), for queries.
    public var spanNames: [String]
    /// The earliest known start and the latest known end among spans with both times, nanoseconds since 1970; 0
    /// when none has both.
    public var startUnixNano: UInt64
    public var endUnixNano: UInt64
    /// Spans the store holds of it.
    public var spanCount: Int
    /// Spans of it not kept (over the store's limit per trace).
    public var droppedSpans: Int
    /// Spans that failed (an error status, or errors counted from them).
    public var failedSpans: Int

    /// A summary from its parts.
    public init(
        traceID: String, arrival: UInt64, heldFrom: UInt64 = 0, rootName: String? = nil, rootIsOrphan: Bool = false,
        services: [String] = [], spanNames: [String] = [], startUnixNano: UInt64 = 0, endUnixNano: UInt64 = 0,
        spanCount: Int = 0, droppedSpans: Int = 0, failedSpans: Int = 0
    ) {
        self.traceID = traceID
        self.arrival = arrival
        self.heldFrom = heldFrom
        self.rootName = rootName
        self.rootIsOrphan = rootIsOrphan
        self.services = services
        self.spanNames = spanNames
        self.startUnixNano = startUnixNano
        self.endUnixNano = endUnixNano
        self.spanCount = spanCount
        self.droppedSpans = droppedSpans
        self.failedSpans = failedSpans
    }

    /// From the earliest known start to the latest known end; `nil` when no span has both times.
    public var durationNanos: UInt64? {
        guard startUnixNano != 0, endUnixNano >= startUnixNano else { return nil }
        return endUnixNano - startUnixNano
    }

    /// Whether a span of it failed.
    public var failed: Bool { failedSpans > 0 }

    /// Takes in one more span kept of the trace.
    public mutating func add(_ span: TraceSpan) {
        spanCount += 1
        if span.failed { failedSpans += 1 }
        if span.durationNanos != nil {
            if startUnixNano == 0 || span.startUnixNano < startUnixNano { startUnixNano = span.startUnixNano }
            endUnixNano = max(endUnixNano, span.endUnixNano)
        }
        if let service = span.service, !service.isEmpty, services.count < Self.namesKept, !services.contains(service) {
            services.append(service)
        }
        if spanNames.count < Self.namesKept, !spanNames.contains(span.name) { spanNames.append(span.name) }
        if span.parentSpanID == nil {
            if rootName == nil || rootIsOrphan {
                rootName = span.name
                rootIsOrphan = false
            }
        } else if rootName == nil {
            rootName = span.name
            rootIsOrphan = true
        }
    }
}
