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
        // What it holds, against its budget: the row says it, and counts spans, not events.
        let holds =
            "holds \(Format.count(statistics.traces)) trace\(statistics.traces == 1 ? "" : "s"), "
            + "\(Format.count(statistics.spans)) of \(Format.count(budget.spans)) spans, "
            + "\(Format.count(statistics.bytes / 1024)) of \(Format.count(budget.bytes / 1024)) KiB"
        self.init(
            id: "trace-store", kind: .otlp, name: "trace store", detail: holds,
            state: ([holds] + parts).joined(separator: "; "), health: parts.isEmpty ? .ok : .degraded,
            events: UInt64(statistics.spans))
        countNoun = "spans"
    }
}
