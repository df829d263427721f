import ErrorStreaming
import Foundation

/// One of the demo app's keys: the character, the action, and how to describe it in help and hints.
public struct DemoKey: Sendable, Hashable {
    /// The key pressed.
    public var key: Character
    /// What it does.
    public var action: DemoAction
    /// A short phrase for help and docs.
    public var summary: String
    /// A one- or two-word hint for a footer; `nil` keeps the key out of footers.
    public var hint: String?
}
