/// Where the header, footer and the four panes go for a terminal size.
///
/// - width ≥ 110: two columns, Errors over Logs on the left, Metrics over Status on the right;
/// - 60 ≤ width < 110: stacked, Errors over Logs, with Metrics and Status side by side at the bottom;
/// - width < 60: all four stacked;
/// - below ``DashboardState/minimumSize``: ``isTooSmall``, and only the "terminal too small" screen is drawn.
///
/// When producers are watched from outside, a `Sources` pane shares the Status slot, or takes it while no status
/// has been published.
public struct DashboardLayout: Sendable, Hashable {
    /// Whether the terminal is below the minimum size; every rectangle is then empty.
    public var isTooSmall: Bool
    /// The top row.
    public var header: Rect
    /// The bottom row.
    public var footer: Rect
    /// The Errors pane, border included (likewise the next three).
    public var errors: Rect
    public var logs: Rect
    public var metrics: Rect
    public var status: Rect
    /// The Sources pane; empty when no source is watched.
    public var sources: Rect

    /// The layout for `state`: its size, and whether Status and Sources have anything to show.
    public init(for state: DashboardState) {
        self.init(
            width: state.screen.width, height: state.screen.height, showsStatus: Self.showsStatus(state.feeds),
            sourceCount: state.feeds.sources.count)
    }

    /// Whether the Status pane has a place: while a status is published, or while no source would take its slot.
    static func showsStatus(_ feeds: FeedsState) -> Bool { !feeds.statuses.isEmpty || feeds.sources.isEmpty }

    /// The layout for a terminal of `width` × `height` cells, with `sourceCount` sources to list (none by default);
    /// without statuses to show, Sources takes the Status slot.
    public init(width: Int, height: Int, showsStatus: Bool = true, sourceCount: Int = 0) {
        let screen = Rect(x: 0, y: 0, width: width, height: height)
        let empty = Rect(x: 0, y: 0, width: 0, height: 0)
        isTooSmall = width < DashboardState.minimumSize.width || height < DashboardState.minimumSize.height
        guard !isTooSmall else {
            (header, footer, errors, logs, metrics, status, sources) = (empty, empty, empty, empty, empty, empty, empty)
            return
        }
        sources = empty
        let rows = Layout.split(screen, .vertical, [.fixed(1), .fill(1), .fixed(1)])
        header = rows[0]
        footer = rows[2]
        let body = rows[1]
        let sourceHeight = sourceCount == 0 ? 0 : min(10, max(4, sourceCount + 2))
        if width >= 110 {
            let columns = Layout.split(body, .horizontal, [.percentage(58), .fill(1)])
            let left = Layout.split(columns[0], .vertical, [.percentage(38), .fill(1)])
            let right = Layout.split(
                columns[1], .vertical, [.fill(1), .fixed(showsStatus ? 7 : 0), .fixed(sourceHeight)])
            (errors, logs, metrics, status, sources) = (left[0], left[1], right[0], right[1], right[2])
        } else if width >= 60 {
            // Short terminals keep Errors and Logs readable first: Metrics and Status shrink, then go.
            let bottomHeight =
                body.height >= 20 ? min(11, max(8, body.height * 2 / 5)) : body.height >= 14 ? 6 : 0
            let errorsHeight: Constraint = body.height >= 20 ? .percentage(25) : .fixed(max(3, body.height / 3))
            let parts = Layout.split(body, .vertical, [errorsHeight, .fill(1), .fixed(bottomHeight)])
            let bottom = Layout.split(parts[2], .horizontal, [.percentage(56), .fill(1)])
            (errors, logs, metrics) = (parts[0], parts[1], bottom[0])
            switch (showsStatus, sourceCount > 0) {
            case (true, true):
                let slot = Layout.split(bottom[1], .vertical, [.percentage(50), .fill(1)])
                (status, sources) = (slot[0], slot[1])
            case (false, true): (status, sources) = (empty, bottom[1])
            default: status = bottom[1]
            }
        } else {
            let tall = body.height >= 24
            let metricsHeight = tall ? 8 : body.height >= 16 ? 5 : 0
            let errorsHeight: Constraint = tall ? .percentage(20) : .fixed(max(3, body.height / 3))
            let parts = Layout.split(
                body, .vertical,
                [
                    errorsHeight, .fill(1), .fixed(metricsHeight), .fixed(tall && showsStatus ? 5 : 0),
                    .fixed(tall ? min(sourceHeight, 5) : 0),
                ])
            (errors, logs, metrics, status, sources) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        }
    }

    /// The rectangle of `pane`.
    public func rect(of pane: Pane) -> Rect {
        switch pane {
        case .errors: errors
        case .logs: logs
        case .metrics: metrics
        case .status: status
        case .sources: sources
        }
    }

    /// The rows between the header and the footer, where a detail view goes.
    public var body: Rect {
        isTooSmall
            ? Rect(x: 0, y: 0, width: 0, height: 0)
            : Rect(x: header.x, y: header.maxY, width: header.width, height: max(0, footer.y - header.maxY))
    }

    /// Rows of the body.
    public var bodyRows: Int { body.height }

    /// Lines of Logs visible inside the border.
    public var logRows: Int { max(0, logs.height - 2) }
    /// Alerts visible inside the Errors border.
    public var errorRows: Int { max(0, errors.height - 2) }

    /// What the keys need of this layout: the page sizes of Logs, Errors and a detail view, and the panes on screen.
    public var viewport: Viewport {
        var viewport = Viewport(
            logRows: logRows, errorRows: errorRows, detailRows: max(0, bodyRows - 2),
            panes: Pane.allCases.filter { !rect(of: $0).isEmpty })
        viewport.metricsRows = max(0, metrics.height - 2)
        return viewport
    }
}

extension Viewport {
    /// The viewport of the layout for a screen of `width` × `height` showing `feeds`' statuses and sources.
    init(width: Int, height: Int, feeds: FeedsState) {
        self = DashboardLayout(
            width: width, height: height, showsStatus: DashboardLayout.showsStatus(feeds),
            sourceCount: feeds.sources.count
        ).viewport
    }
}
