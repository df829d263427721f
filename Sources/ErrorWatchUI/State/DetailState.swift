/// The detail slice of ``DashboardState``: the detail views open, innermost last, where the open one is scrolled
/// to, and what is selected in it. Changed only by ``reduce(_:)``, with the actions of ``Action``.
public struct DetailState: Sendable, Equatable {
    /// The detail views open, innermost last; the last one fills the dashboard's body. `Esc` or `q` closes it.
    public private(set) var stack: [DetailTarget] = []
    /// Where the open detail view is scrolled, as the keys asked; drawing keeps it within the content.
    public private(set) var scroll = DetailScroll()
    /// In a group's detail view, the selected occurrence (0 is the newest).
    public private(set) var occurrence = 0
    /// In an event's detail with a reported stack trace, the selected frame among those shown (0 is the first).
    public private(set) var frame = 0
    /// Whether library frames (not the app's own) are unfolded in a reported stack trace (`f`).
    public private(set) var showsLibraryFrames = false
    /// In a trace's detail view, the selected span's row in its waterfall (0 is the first).
    public private(set) var span = 0
    /// How far back a chart looks (`w` cycles); kept when a chart closes, for the next one.
    public private(set) var chartWindow = MetricChart.Window.fiveMinutes

    /// No detail view open.
    public init() {}

    /// The detail view shown, if any.
    public var target: DetailTarget? { stack.last }

    /// What changes the detail views.
    enum Action: Sendable {
        /// `target` opened over the current view (at most eight deep), at its top.
        case opened(DetailTarget)
        /// The innermost view closed.
        case closed
        /// A scroll key, `page` rows a page.
        case scrolled(ScrollMove, page: Int)
        /// `]` (`by: 1`) or `[`: the next or previous of `count` occurrences.
        case occurrenceMoved(by: Int, count: Int)
        /// `.` (`by: 1`) or `,`: the next or previous of `count` listed frames.
        case frameMoved(by: Int, count: Int)
        /// `f`: library frames unfolded or folded, from the first frame.
        case libraryFramesToggled
        /// `j` (`by: 1`) or `k` in a trace's waterfall of `count` rows: the next or previous span.
        case spanMoved(by: Int, count: Int)
        /// `w` in a chart: the next time window.
        case chartWindowCycled
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .opened(let target):
            stack.append(target)
            if stack.count > 8 { stack.removeFirst() }
            reset()
        case .closed:
            guard !stack.isEmpty else { return false }
            stack.removeLast()
            reset()
        case .scrolled(let move, let page):
            scroll.apply(move, page: page)
        case .occurrenceMoved(let step, let count):
            guard count > 0 else { return false }
            occurrence = min(max(0, occurrence + step), count - 1)
        case .frameMoved(let step, let count):
            guard count > 0 else { return false }
            frame = step < 0 ? max(0, min(frame, count - 1) + step) : min(count - 1, frame + step)
        case .libraryFramesToggled:
            showsLibraryFrames.toggle()
            frame = 0
        case .spanMoved(let step, let count):
            guard count > 0 else { return false }
            span = min(max(0, min(span, count - 1) + step), count - 1)
        case .chartWindowCycled:
            chartWindow = chartWindow.next
        }
        return true
    }

    /// A view opened or closed: the one shown is at its top, nothing selected, library frames folded.
    private mutating func reset() {
        scroll = DetailScroll()
        occurrence = 0
        frame = 0
        showsLibraryFrames = false
        span = 0
    }
}
