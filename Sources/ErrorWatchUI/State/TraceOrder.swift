/// How the Traces view is sorted (`O` cycles, in this order).
public enum TraceOrder: String, Sendable, Hashable, CaseIterable {
    /// Newest first: the latest start first (traces whose times are unknown last, latest received first).
    case time
    /// Slowest first (traces whose duration is unknown last).
    case duration
    /// Most failing spans first, then newest.
    case errors
}
