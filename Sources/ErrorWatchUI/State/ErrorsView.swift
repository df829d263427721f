/// What the Errors pane lists.
public enum ErrorsView: String, Sendable, Hashable {
    /// What users were told: coalesced, user-origin alerts.
    case alerts = "Alerts"
    /// Every error, background included, grouped by fingerprint.
    case issues = "Issues"
    /// The templates of every line, logs too (``PatternsState``).
    case patterns = "Patterns"
    /// Every trace the trace store holds (``TracesState``).
    case traces = "Traces"
    /// The service map: which service calls which (``MetricsSnapshot/serviceEdges``).
    case services = "Services"
}
