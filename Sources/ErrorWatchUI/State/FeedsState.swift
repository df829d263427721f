/// The feeds slice of ``DashboardState``: what producers and attached apps report besides events and alerts —
/// the metrics sample, named statuses, the apps attached in-process and the sources watched from outside.
/// Written only by reducers (``reduce(_:)``, and attaching an app).
public struct FeedsState: Sendable, Equatable {
    /// The latest metrics sample.
    public internal(set) var metrics: MetricsSnapshot = .empty
    /// Named statuses (latest per service and name) in the order they first appeared.
    public internal(set) var statuses: [StatusEntry] = []
    /// Apps attached inside the dashboard's process, in the order they attached.
    public internal(set) var apps: [AttachedApp] = []
    /// Producers watched from outside the process, in the order they appeared: every live one and the most
    /// recent ones that ended.
    public internal(set) var sources: [SourceStatus] = []
    /// Ended sources no longer listed, counted exactly.
    public internal(set) var forgottenSources = 0
    /// What the header says about the store (pruning, paused, off), `nil` when it works quietly or there is none.
    public internal(set) var storeNote: String?

    /// Nothing reported yet.
    public init() {}

    /// Applies samples, statuses and source lists; returns whether anything changed. Others leave it as it is.
    mutating func reduce(_ action: DashboardAction) -> Bool {
        switch action {
        case .storeStatusChanged(let note):
            defer { storeNote = note.map { Sanitizer.sanitize($0, limit: 120) } }
            return note != storeNote
        case .metricsSampled(let metrics):
            defer { self.metrics = metrics }
            return metrics != self.metrics
        case .statusChanged(var status):
            status.name = Sanitizer.sanitize(status.name, limit: 40)
            status.state = Sanitizer.sanitize(status.state, limit: 80)
            status.detail = Sanitizer.sanitize(status.detail, limit: 200)
            status.service = status.service.map { Sanitizer.sanitize($0, limit: 40) }
            if let index = statuses.firstIndex(where: { $0.key == status.key }) {
                defer { statuses[index] = status }
                return statuses[index] != status
            } else if statuses.count < DashboardState.statusCapacity {
                statuses.append(status)
                return true
            }
            return false
        case .sourcesChanged(let sources):
            defer { self.sources = sources }
            return sources != self.sources
        case .sourcesForgotten(let count):
            defer { forgottenSources = max(0, count) }
            return count != forgottenSources
        default:
            return false
        }
    }
}
