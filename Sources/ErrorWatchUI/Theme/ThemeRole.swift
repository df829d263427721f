import Foundation

/// What a colour is for. Themes map roles to colours; panes ask for roles, never for colours.
public enum ThemeRole: String, Sendable, Hashable, CaseIterable {
    case text
    case muted
    case border
    case focusedBorder
    case title
    case focusedTitle
    case header
    case headerAccent
    case footer
    case footerKey
    case status
    case paused
    case filter
    case selection
    case alert
    case sparkline
    case help
    case severityDebug
    case severityInfo
    case severityNotice
    case severityWarning
    case severityError
    case severityCritical
    case categoryBug
    case categoryUserActionable
    case categoryTransient
    case categoryUnrecoverable
    case categoryExpected
    case healthOk
    case healthDegraded
    case healthFailing
    case healthIdle

    /// Attributes added on a monochrome terminal (or under `NO_COLOR`), so that roles stay distinguishable
    /// without colour: a focused border is bold, a selection reversed, muted text dim.
    public var monochromeAttributes: CellAttributes {
        switch self {
        case .muted, .severityDebug, .healthIdle, .categoryExpected: .dim
        case .focusedBorder, .title, .footerKey, .alert, .severityError, .healthFailing, .categoryBug, .headerAccent:
            .bold
        case .focusedTitle: [.bold, .reverse]
        case .header, .selection: .reverse
        case .paused: [.bold, .reverse]
        case .severityCritical: [.bold, .underline]
        case .severityWarning, .healthDegraded, .filter: .underline
        default: []
        }
    }
}

