/// The panes, in focus order. `Sources` is shown (and focusable) only while producers are watched from outside.
public enum Pane: String, Sendable, Hashable, CaseIterable {
    case errors = "Errors"
    case logs = "Logs"
    case metrics = "Metrics"
    case status = "Status"
    case sources = "Sources"

    /// The title drawn in the pane's border, exactly `Errors`, `Logs`, `Metrics`, `Status`, `Sources`.
    public var title: String { rawValue }
}
