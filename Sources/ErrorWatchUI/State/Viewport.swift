/// What the keys need to know of the layout: how many rows a page of Logs, of Errors and of a detail view holds,
/// and the panes on screen (what Tab cycles through). A plain value: the root reducer takes it from the layout when
/// the size or the panes change (`Viewport(width:height:feeds:)`), and ``ScreenState`` keeps it, so that no key
/// lays the screen out again.
public struct Viewport: Sendable, Hashable {
    /// Lines of Logs inside its border.
    public var logRows: Int
    /// Rows inside the Errors pane's border.
    public var errorRows: Int
    /// Rows of a detail view inside its border.
    public var detailRows: Int
    /// Rows inside the Metrics pane's border.
    public var metricsRows: Int = 0
    /// The panes with room on screen, in focus order.
    public var panes: [Pane]

    /// A viewport of these sizes; nothing on screen by default.
    public init(logRows: Int = 0, errorRows: Int = 0, detailRows: Int = 0, panes: [Pane] = []) {
        self.logRows = logRows
        self.errorRows = errorRows
        self.detailRows = detailRows
        self.panes = panes
    }
}
