/// A command an attached app offers (see ``AttachedApp``): which app, and the app's own name for the command.
/// The dashboard does not interpret it; the runtime hands it back to the app (effect `.appCommand`).
public struct AppCommand: Sendable, Hashable {
    /// The attached app's name, for example `demo`.
    public var app: String
    /// The command's identifier in the app's own vocabulary, for example `serverErrorBurst`.
    public var id: String

    /// A command `id` of the app named `app`.
    public init(app: String, id: String) {
        self.app = app
        self.id = id
    }
}
