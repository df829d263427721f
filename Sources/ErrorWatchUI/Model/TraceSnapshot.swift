import ErrorStreaming
import Foundation

/// The spans of one trace received so far, as the runtime's trace store last saw them: what the **Trace** section
/// of an error's detail view draws. A trace still arriving is sent again as spans come.
public struct TraceSnapshot: Sendable, Hashable {
    /// The trace id, 32 lower-case hex digits.
    public var traceID: String
    /// The spans shown, in the order received: every failing span and its ancestors first, then the others up to
    /// the store's limit per snapshot.
    public var spans: [TraceSpan]
    /// Spans of the trace the store holds (``spans`` may show fewer).
    public var storedSpans: Int
    /// Spans of the trace not kept: over the store's limit per trace.
    public var droppedSpans: Int
    /// Whether the store has since evicted the trace to stay within its budget (the spans are the last ones seen).
    public var evicted: Bool
    /// Parents of spans in ``spans`` that the store holds but the snapshot leaves out (over its limit): received,
    /// only not shown.
    public var unshownParents: Set<UInt64>

    /// A snapshot from its parts.
    public init(
        traceID: String, spans: [TraceSpan], storedSpans: Int? = nil, droppedSpans: Int = 0, evicted: Bool = false,
        unshownParents: Set<UInt64> = []
    ) {
        self.traceID = traceID
        self.spans = spans
        self.storedSpans = storedSpans ?? spans.count
        self.droppedSpans = droppedSpans
        self.evicted = evicted
        self.unshownParents = unshownParents
    }
}
