import Foundation

/// How one role is drawn: colours and attributes. A missing colour means the terminal default.
public struct RoleStyle: Sendable, Hashable {
    /// Text colour.
    public var foreground: ThemeColor
    /// Cell background.
    public var background: ThemeColor
    /// Bold, dim, underline, reverse.
    public var attributes: CellAttributes

    /// A role style; everything defaults to the terminal's own.
    public init(foreground: ThemeColor = .default, background: ThemeColor = .default, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}
