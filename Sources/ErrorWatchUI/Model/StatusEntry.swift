import ErrorStreaming
import Foundation

/// One named status a producer publishes about itself, for the `Status` pane: the demo's `login`, a server's
/// `reconciler`, a worker's `queue`.
///
/// The reducer keeps the latest per ``service`` and ``name``, in the order they first appeared.
public struct StatusEntry: Sendable, Hashable {
    /// The producing service; `nil` for an app inside the dashboard's process.
    public var service: String?
    /// The status's name, unique within its service.
    public var name: String
    /// What it is doing now: `logged in`, `retrying 2/5`, `running`.
    public var state: String
    /// Picks the glyph and colour of the row.
    public var health: StatusHealth
    /// More about it: the last outcome, `pass 7 of 9`.
    public var detail: String
    /// When it last changed; shown as an age.
    public var changedAt: Date

    /// A status.
    public init(
        service: String? = nil, name: String, state: String, health: StatusHealth, detail: String = "", changedAt: Date
    ) {
        self.service = service
        self.name = name
        self.state = state
        self.health = health
        self.detail = detail
        self.changedAt = changedAt
    }

    /// The key the reducer upserts by.
    public var key: String { (service ?? "") + "\u{1F}" + name }
}

