import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation

/// The demo app attached to the dashboard the way a user's app would attach itself: through the runtime's
/// public interface, translating between the app's vocabulary (``DemoAction``, ``DemoStatus``) and the
/// dashboard's (keys, ``StatusEntry``).
enum DemoAttachment {
    /// The demo's app name, which its commands are routed by.
    static let name = "demo"

    /// Builds the demo app on `runtime` (its stream, clock, executor, metrics and log handlers) and returns its
    /// attachment.
    static func make(in runtime: DashboardRuntime, configuration: DemoConfiguration) -> AppAttachment {
        let app = DemoApp(
            stream: runtime.stream, clock: runtime.clock, configuration: configuration, metrics: runtime.metrics,
            now: { runtime.now }, executor: runtime.executor,
            logHandler: { runtime.makeLogHandler(label: $0) },
            statusSink: { runtime.publish(status: StatusEntry($0)) })
        return AppAttachment(
            name: name, title: DemoApp.title, bindings: bindings, start: { app.start() }, stop: { app.stop() },
            perform: { command in
                if let action = DemoAction(rawValue: command) { app.perform(action) }
            })
    }

    /// The demo's keys as the dashboard binds them.
    static var bindings: [AppAttachment.Binding] {
        DemoApp.keys.map {
            AppAttachment.Binding(
                key: .character($0.key), command: $0.action.rawValue, summary: $0.summary, hint: $0.hint)
        }
    }

    /// The demo as the dashboard's state lists it (for the docs' key table).
    static var attachedApp: AttachedApp {
        AppAttachment(name: name, title: DemoApp.title, bindings: bindings, start: {}, stop: {}, perform: { _ in })
            .attachedApp
    }
}

extension StatusEntry {
    /// The `Status` pane's view of one of the demo's statuses (an app inside the process: no service).
    init(_ status: DemoStatus) {
        self.init(
            name: status.name, state: status.state, health: status.health, detail: status.detail,
            changedAt: status.changedAt)
    }
}
