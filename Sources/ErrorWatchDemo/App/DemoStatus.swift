import ErrorStreaming
import Foundation

/// The state of one of the demo's flows (`login`, `session`, `sync`), published whenever it changes.
public struct DemoStatus: Sendable, Hashable {
    /// `login`, `session` or `sync`.
    public var name: String
    /// What it is doing now: `logged in`, `retrying 2/5`, `offline`.
    public var state: String
    /// How it is doing.
    public var health: StatusHealth
    /// The last thing that happened: `login ok as ada@example.com`, `A-401 Session expired…`.
    public var detail: String
    /// When it changed.
    public var changedAt: Date

    /// A status.
    public init(name: String, state: String, health: StatusHealth, detail: String, changedAt: Date) {
        self.name = name
        self.state = state
        self.health = health
        self.detail = detail
        self.changedAt = changedAt
    }
}
