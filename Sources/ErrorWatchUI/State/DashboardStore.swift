/// The one store: the dashboard's state, the reducer that changes it, and the effects it asks for. The live loop
/// and the headless renderer both drive the dashboard through it, so they cannot disagree about what an action
/// does.
///
/// ```swift
/// var store = DashboardStore(state: DashboardState(now: start))
/// let effects = store.send(.keyPressed(.character("q")))   // [.quit]
/// store.generation                                           // changes whenever something visible changed
/// ```
public struct DashboardStore: Sendable {
    /// The state as of the last action.
    public private(set) var state: DashboardState

    /// A store starting from `state`.
    public init(state: DashboardState) { self.state = state }

    /// Reduces `action` into the state and returns what the caller must perform.
    @discardableResult
    public mutating func send(_ action: DashboardAction) -> [DashboardEffect] {
        DashboardReducer.reduce(into: &state, action: action)
    }

    /// Increases whenever something visible changed; a driver redraws only when it differs from its last frame's.
    public var generation: UInt64 { state.generation }
}
