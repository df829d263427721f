/// The detail slice of ``DashboardState``: the detail views open, innermost last, and where the open one is
/// scrolled to. Written only by the key handling.
public struct DetailState: Sendable, Equatable {
    /// The detail views open, innermost last; the last one fills the dashboard's body. `Esc` or `q` closes it.
    public internal(set) var stack: [DetailTarget] = []
    /// Rows of the open detail view scrolled past.
    public internal(set) var scroll = 0
    /// In a group's detail view, the selected occurrence (0 is the newest).
    public internal(set) var occurrence = 0
    /// In an event's detail with a reported stack trace, the selected frame among those shown (0 is the first).
    public internal(set) var frame = 0
    /// Whether library frames (not the app's own) are unfolded in a reported stack trace (`f`).
    public internal(set) var showsLibraryFrames = false

    /// No detail view open.
    public init() {}

    /// The detail view shown, if any.
    public var target: DetailTarget? { stack.last }

    /// Opens `target` over the current one (at most eight deep), at its top.
    mutating func push(_ target: DetailTarget) {
        stack.append(target)
        if stack.count > 8 { stack.removeFirst() }
        scroll = 0
        occurrence = 0
        frame = 0
        showsLibraryFrames = false
    }

    /// Closes the innermost detail view.
    mutating func close() {
        stack.removeLast()
        scroll = 0
        occurrence = 0
        frame = 0
        showsLibraryFrames = false
    }
}
