/// The feeds slice of ``DashboardState``: what producers and attached apps report besides events and alerts —
/// the metrics sample, named statuses, the apps attached in-process and the sources watched from outside.
/// Changed only by ``reduce(_:)``, with the actions of ``Action``.
public struct FeedsState: Sendable, Equatable {
    /// The latest metrics sample.
    public private(set) var metrics: MetricsSnapshot = .empty
    /// Named statuses (latest per service and name) in the order they first appeared.
    public private(set) var statuses: [StatusEntry] = []
    /// Apps attached inside the dashboard's process, in the order they attached.
    public private(set) var apps: [AttachedApp] = []
    /// Producers watched from outside the process, in the order they appeared: every live one and the most
    /// recent ones that ended.
    public private(set) var sources: [SourceStatus] = []
    /// Ended sources no longer listed, counted exactly.
    public private(set) var forgottenSources = 0
    /// What the header says about the store (pruning, paused, off), `nil` when it works quietly or there is none.
    public private(set) var storeNote: String?
    /// Where the receivers listen, for the first screen to say where to send.
    public private(set) var receivers: [ReceiverAddress] = []

    /// Nothing reported yet.
    public init() {}

    /// What changes the feeds slice.
    enum Action: Sendable {
        /// The runtime sampled the metrics backend.
        case metricsSampled(MetricsSnapshot)
        /// A named status changed; the latest per service and name wins.
        case statusChanged(StatusEntry)
        /// The producers watched from outside changed: the whole list, in order.
        case sourcesChanged([SourceStatus])
        /// How many ended sources the runtime no longer lists, in all.
        case sourcesForgotten(Int)
        /// The store's state changed.
        case storeStatusChanged(String?)
        /// The receivers started listening at these addresses.
        case receiversListening([ReceiverAddress])
        /// An app attached, its names made safe and its bindings vetted against the keys in use; it replaces the
        /// app attached under `name`, if any.
        case appAttached(AttachedApp, replacing: String)
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
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
        case .receiversListening(let receivers):
            let safe = receivers.map {
                ReceiverAddress(
                    kind: Sanitizer.sanitize($0.kind, limit: 20), address: Sanitizer.sanitize($0.address, limit: 200),
                    setting: Sanitizer.sanitize($0.setting, limit: 300))
            }
            defer { self.receivers = safe }
            return safe != self.receivers
        case .sourcesForgotten(let count):
            defer { forgottenSources = max(0, count) }
            return count != forgottenSources
        case .appAttached(let app, let name):
            apps.removeAll { $0.name == name }
            apps.append(app)
            return true
        }
    }
}
