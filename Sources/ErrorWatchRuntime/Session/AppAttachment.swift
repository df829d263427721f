import ErrorWatchUI

/// How an app running inside the dashboard's process attaches itself: its name, its keys and what to call when
/// one is pressed, and how to start and stop it. The app keeps its own vocabulary; the attachment translates.
///
/// An app reports errors to ``DashboardRuntime/stream``, logs through ``DashboardRuntime/makeLogHandler(label:)``,
/// records metrics through ``DashboardRuntime/metrics`` (a swift-metrics factory) and publishes statuses with
/// ``DashboardRuntime/publish(status:)``:
///
/// ```swift
/// let worker = Worker(stream: runtime.stream, metrics: runtime.metrics)
/// runtime.attach(
///     AppAttachment(
///         name: "worker", title: "Worker",
///         bindings: [.init(key: .character("d"), command: "drain", summary: "Drain the queue", hint: "drain")],
///         start: { worker.start() }, stop: { worker.stop() },
///         perform: { command in if command == "drain" { worker.drain() } }))
/// ```
public struct AppAttachment: Sendable {
    /// One of the app's keys.
    public struct Binding: Sendable, Hashable {
        /// The key; keys the dashboard already uses stay the dashboard's (the status line says so).
        public var key: Key
        /// The app's name for the command, handed back to ``AppAttachment/perform``.
        public var command: String
        /// A short phrase for the help overlay and the docs.
        public var summary: String
        /// A one- or two-word footer hint; `nil` keeps the key out of the footer.
        public var hint: String?

        /// A binding of `key` to the app's `command`.
        public init(key: Key, command: String, summary: String, hint: String? = nil) {
            self.key = key
            self.command = command
            self.summary = summary
            self.hint = hint
        }
    }

    /// The app's name; shown nowhere but in messages, and the key its commands are routed by.
    public var name: String
    /// The heading of its keys in the help overlay and the docs.
    public var title: String
    /// Its keys, in the order help lists them.
    public var bindings: [Binding]
    /// Starts the app; called once, after the dashboard's feeds subscribed (so nothing it reports is missed).
    public var start: @Sendable () -> Void
    /// Stops the app; called once, before the stream finishes.
    public var stop: @Sendable () -> Void
    /// Performs one of the app's commands; called from the UI thread, so it must return quickly.
    public var perform: @Sendable (String) -> Void

    /// An attachment; see the type's documentation.
    public init(
        name: String, title: String, bindings: [Binding], start: @escaping @Sendable () -> Void,
        stop: @escaping @Sendable () -> Void, perform: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.title = title
        self.bindings = bindings
        self.start = start
        self.stop = stop
        self.perform = perform
    }

    /// What the dashboard's state needs to know: the app's name, title and key bindings.
    public var attachedApp: AttachedApp {
        AttachedApp(
            name: name, title: title,
            bindings: bindings.map {
                KeyBinding(
                    keys: [$0.key], command: .app(AppCommand(app: name, id: $0.command)), summary: $0.summary,
                    hint: $0.hint)
            })
    }
}
