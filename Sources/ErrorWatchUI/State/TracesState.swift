/// The traces slice of ``DashboardState``: the latest ``TraceSnapshot`` of each trace an error belongs to, for the
/// detail view's **Trace** section. Bounded: the ``capacity`` traces changed most recently are kept.
public struct TracesState: Sendable, Equatable {
    /// Traces kept.
    public static let capacity = 64

    /// The latest snapshot per trace id.
    public private(set) var snapshots: [String: TraceSnapshot] = [:]
    /// Trace ids, least recently changed first.
    private var order: [String] = []

    /// No trace yet.
    public init() {}

    /// The latest snapshot of `traceID`, if kept.
    public func snapshot(of traceID: String) -> TraceSnapshot? { snapshots[traceID] }

    /// What changes the traces slice.
    enum Action: Sendable {
        /// The spans received of a trace changed: its latest snapshot.
        case traceChanged(TraceSnapshot)
    }

    /// Takes a trace's new snapshot; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        guard case .traceChanged(let snapshot) = action, snapshots[snapshot.traceID] != snapshot else { return false }
        if snapshots.updateValue(snapshot, forKey: snapshot.traceID) != nil {
            order.removeAll { $0 == snapshot.traceID }
        }
        order.append(snapshot.traceID)
        if order.count > Self.capacity {
            for id in order.prefix(order.count - Self.capacity) { snapshots.removeValue(forKey: id) }
            order.removeFirst(order.count - Self.capacity)
        }
        return true
    }
}
