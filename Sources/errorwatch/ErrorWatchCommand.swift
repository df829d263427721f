import ArgumentParser
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation

/// `errorwatch`: a live terminal dashboard of an app's errors. Argument parsing and wiring only; the work is
/// done by ErrorWatchRuntime (sources, feeds, sessions), ErrorWatchUI (the screen), ErrorWatchTerminal (ncurses)
/// and ErrorWatchDemo (the simulated app, attached like any app).
struct ErrorWatchCommand: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "errorwatch",
        abstract: "Watch any app's errors live: alerts, logs, metrics and statuses in one terminal dashboard.",
        discussion: """
            Watches other processes (--listen, --tail, replay), or by default a simulated app whose login, \
            session and sync flows fail and recover as you press keys (press ? inside for every binding). \
            `errorwatch render` prints the same screen as text without a terminal.
            """,
        version: "errorwatch \(version)",
        subcommands: [LiveCommand.self, RunCommand.self, RenderCommand.self, ReplayCommand.self, DemoCommand.self, IssuesCommand.self],
        defaultSubcommand: LiveCommand.self
    )
}

/// Options shared by the live dashboard and `render`.
struct AppearanceOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A theme name from the themes folder, or a path to a theme .json file.", valueName: "name|path"))
    var theme: String?

    @Option(
        name: .customLong("themes-dir"),
        help: ArgumentHelp(
            "A folder of themes to add to the built-in ones (else $ERRORWATCH_THEMES, ./Themes, beside the executable).",
            valueName: "dir"))
    var themesDirectory: String?

    @Option(name: .long, help: "Seed for the simulated app's random choices; the same seed replays the same run.")
    var seed: UInt64 = 7

    @Flag(name: .customLong("no-color"), help: "No colours, attributes only (also when NO_COLOR is set).")
    var noColor = false
}

extension AppearanceOptions {
    /// Whether to draw without colour (`--no-color`, or a non-empty `NO_COLOR` when `honoringNoColor`), and the
    /// themes to use.
    func resolve(honoringNoColor: Bool = true) -> (monochrome: Bool, themes: ThemeSelection) {
        let environment = ProcessInfo.processInfo.environment
        let monochrome = noColor || (honoringNoColor && environment["NO_COLOR"].map { !$0.isEmpty } == true)
        let selection = ThemeSelection.resolve(
            requested: theme, themesDirectory: themesDirectory, environment: environment)
        return (monochrome, selection)
    }
}
