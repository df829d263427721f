import ErrorStreaming
import Foundation

/// An app running inside the dashboard's process and what it offers: its key bindings, shown in the footer and
/// the help overlay under ``title``. Pressing one of its keys yields the effect `.appCommand`.
public struct AttachedApp: Sendable, Hashable {
    /// The app's name; its commands carry it.
    public var name: String
    /// The heading of its keys in the help overlay and the docs, for example `Demo app: break it and heal it`.
    public var title: String
    /// Its bindings; every command must be `.app` with this app's name.
    public var bindings: [KeyBinding]

    /// An app named `name` with `bindings` listed under `title`.
    public init(name: String, title: String, bindings: [KeyBinding]) {
        self.name = name
        self.title = title
        self.bindings = bindings
    }
}
