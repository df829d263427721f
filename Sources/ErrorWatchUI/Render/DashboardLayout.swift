/// Where the header, footer and the four panes go for a terminal size.
///
/// - width ≥ 110: two columns, Errors over Logs on the left, Metrics over Flows on the right;
/// - 60 ≤ width < 110: stacked, Errors over Logs, with Metrics and Flows side by side at the bottom;
/// - width < 60: all four stacked;
/// - below ``DashboardState/minimumSize``: ``isTooSmall``, and only the "terminal too small" screen is drawn.
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
    public var flows: Rect

    /// The layout for a terminal of `width` × `height` cells.
    public init(width: Int, height: Int) {
        let screen = Rect(x: 0, y: 0, width: width, height: height)
        let empty = Rect(x: 0, y: 0, width: 0, height: 0)
        isTooSmall = width < DashboardState.minimumSize.width || height < DashboardState.minimumSize.height
        guard !isTooSmall else {
            (header, footer, errors, logs, metrics, flows) = (empty, empty, empty, empty, empty, empty)
            return
        }
        let rows = Layout.split(screen, .vertical, [.fixed(1), .fill(1), .fixed(1)])
        header = rows[0]
        footer = rows[2]
        let body = rows[1]
        if width >= 110 {
            let columns = Layout.split(body, .horizontal, [.percentage(58), .fill(1)])
            let left = Layout.split(columns[0], .vertical, [.percentage(38), .fill(1)])
            let right = Layout.split(columns[1], .vertical, [.fill(1), .fixed(7)])
            (errors, logs, metrics, flows) = (left[0], left[1], right[0], right[1])
        } else if width >= 60 {
            let bottomHeight = min(11, max(8, body.height * 2 / 5))
            let parts = Layout.split(body, .vertical, [.percentage(25), .fill(1), .fixed(bottomHeight)])
            let bottom = Layout.split(parts[2], .horizontal, [.percentage(56), .fill(1)])
            (errors, logs, metrics, flows) = (parts[0], parts[1], bottom[0], bottom[1])
        } else {
            let parts = Layout.split(body, .vertical, [.percentage(20), .fill(1), .fixed(8), .fixed(5)])
            (errors, logs, metrics, flows) = (parts[0], parts[1], parts[2], parts[3])
        }
    }

    /// The rectangle of `pane`.
    public func rect(of pane: Pane) -> Rect {
        switch pane {
        case .errors: errors
        case .logs: logs
        case .metrics: metrics
        case .flows: flows
        }
    }

    /// Lines of Logs visible inside the border.
    public var logRows: Int { max(0, logs.height - 2) }
    /// Alerts visible inside the Errors border.
    public var errorRows: Int { max(0, errors.height - 2) }
}
