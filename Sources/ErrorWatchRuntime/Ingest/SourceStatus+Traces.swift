import ErrorStreaming
import ErrorWatchUI

extension SourceStatus {
    /// The trace store's row: what it holds against its budget, and what it evicted or dropped to stay within it.
    init(traceStore statistics: TraceStore.Statistics, budget: TraceStore.Budget) {
        var parts: [String] = []
        if statistics.evictedTraces > 0 {
            parts.append(
                "evicted \(statistics.evictedTraces) trace\(statistics.evictedTraces == 1 ? "" : "s") "
                    + "(\(statistics.evictedSpans) spans), oldest first")
        }
        if statistics.droppedSpans > 0 {
            parts.append("dropped \(statistics.droppedSpans) spans over \(budget.spansPerTrace) per trace")
        }
        self.init(
            id: "trace-store", kind: .otlp, name: "trace store",
            detail: "\(statistics.traces) traces, \(statistics.spans) of \(budget.spans) spans, "
                + "\(statistics.bytes / 1024) of \(budget.bytes / 1024) KiB",
            state: parts.isEmpty ? "within budget" : parts.joined(separator: ", "),
            health: parts.isEmpty ? .ok : .degraded)
    }
}
