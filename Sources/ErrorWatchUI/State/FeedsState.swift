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
    /// The series selected in the Metrics pane (`j`/`k` while it has the focus), by ``MetricSeries/id``; `nil`
    /// selects the first listed.
    public private(set) var selectedSeries: String?

    /// The edge selected in the Services view, by ``ServiceEdge/id``; `nil` selects the first listed.
    public private(set) var selectedEdge: String?

    /// The edges of the service map that pass `filter`'s query, by caller then callee.
    public func visibleEdges(_ filter: FilterState) -> [ServiceEdge] {
        filter.query.isEmpty
            ? metrics.serviceEdges : metrics.serviceEdges.filter { filter.query.matches($0.querySubject) }
    }

    /// The index of the selected edge among `edges` (the first when it is no longer listed); `nil` when none is.
    public func selectedEdgeIndex(in edges: [ServiceEdge]) -> Int? {
        guard !edges.isEmpty else { return nil }
        return selectedEdge.flatMap { id in edges.firstIndex { $0.id == id } } ?? 0
    }

    /// The index of the selected series in ``MetricsSnapshot/series`` (the first when the selected one is no longer
    /// listed); `nil` when none is listed.
    public var selectedSeriesIndex: Int? {
        let series = metrics.series
        guard !series.isEmpty else { return nil }
        return selectedSeries.flatMap { id in series.firstIndex { $0.id == id } } ?? 0
    }

    /// Nothing reported yet.
    public init() {}

    /// `series` with those already in `listed` in their listed order, then the new ones in the order they came.
    /// A series no longer sampled leaves its row.
    static func series(_ series: [MetricSeries], inTheOrderOf listed: [MetricSeries]) -> [MetricSeries] {
        var row: [String: Int] = [:]
        for (index, line) in listed.enumerated() { row[line.id] = index }
        var known: [(row: Int, series: MetricSeries)] = []
        var new: [MetricSeries] = []
        for line in series {
            if let at = row[line.id] { known.append((at, line)) } else { new.append(line) }
        }
        return known.sorted { $0.row < $1.row }.map(\.series) + new
    }

    /// What changes the feeds slice.
    enum Action: Sendable {
        /// The runtime sampled the metrics backend. `holdingOrder` while the Metrics pane has the focus: the series
        /// listed keep their rows and new ones go below, so rows do not move under the selection as they update.
        case metricsSampled(MetricsSnapshot, holdingOrder: Bool)
        /// A scroll key in the Metrics pane: the selection moves among the listed series, `page` a page.
        case seriesSelectionMoved(ScrollMove, page: Int)
        /// A scroll key in the Services view: the selection moves among the `edges` listed, `page` a page.
        case edgeSelectionMoved(ScrollMove, page: Int, edges: [ServiceEdge])
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
        case .metricsSampled(var metrics, let holdingOrder):
            if holdingOrder { metrics.series = Self.series(metrics.series, inTheOrderOf: self.metrics.series) }
            defer { self.metrics = metrics }
            return metrics != self.metrics
        case .seriesSelectionMoved(let move, let page):
            let series = metrics.series
            guard let current = selectedSeriesIndex else { return false }
            let index = move.selection(
                from: current, page: page, count: series.count, top: 0, bottom: series.count - 1)
            let id = series[index].id
            defer { selectedSeries = id }
            return id != selectedSeries
        case .edgeSelectionMoved(let move, let page, let edges):
            guard let current = selectedEdgeIndex(in: edges) else { return false }
            let index = move.selection(from: current, page: page, count: edges.count, top: 0, bottom: edges.count - 1)
            let id = edges[index].id
            defer { selectedEdge = id }
            return id != selectedEdge
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
