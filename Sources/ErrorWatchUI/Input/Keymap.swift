/// The one key table. It drives the reducer, the footer hints, the help overlay and the README's key table.
///
/// ```swift
/// Keymap.standard.command(for: .character("q"))   // .dashboard(.quit)
/// print(Keymap.standard.markdownTable())
/// ```
public struct Keymap: Sendable, Hashable {
    /// The rows, in the order help and docs show them.
    public var bindings: [KeyBinding]

    /// A keymap of `bindings`; the first binding that lists a key wins.
    public init(bindings: [KeyBinding]) { self.bindings = bindings }

    /// The binding for `key`, if any. Unknown keys have none and are ignored. `.ctrl` letters match in either case.
    public func binding(for key: Key) -> KeyBinding? {
        var key = key
        if case .ctrl(let c) = key { key = .ctrl(Character(c.lowercased())) }
        return bindings.first { $0.keys.contains(key) }
    }

    /// The command for `key`, if any.
    public func command(for key: Key) -> KeyCommand? { binding(for: key)?.command }

    /// Bindings of dashboard commands, in table order.
    public var dashboardBindings: [KeyBinding] {
        bindings.filter { if case .dashboard = $0.command { true } else { false } }
    }

    /// Bindings of attached apps' commands, in table order.
    public var appBindings: [KeyBinding] {
        bindings.filter { if case .app = $0.command { true } else { false } }
    }

    /// The table as Markdown: the dashboard's keys, then one section per attached app under its title.
    /// `docs/keys.md` holds exactly this text for the standard keymap and the demo app (a test checks), and the
    /// README includes it.
    public static func markdownTable(apps: [AttachedApp]) -> String {
        func rows(_ list: [KeyBinding]) -> String {
            list.map {
                "| \($0.keyLabel.split(separator: " ").map { "`\($0)`" }.joined(separator: " ")) | \($0.summary) |"
            }
            .joined(separator: "\n")
        }
        var text = """
            <!-- Generated from Keymap.standard and the attached apps by Keymap.markdownTable(apps:); do not edit \
            by hand. -->
            ### Dashboard

            | Key | Action |
            | --- | --- |
            \(rows(Keymap.standard.dashboardBindings))

            """
        for app in apps {
            text += """

                ### \(app.title)

                | Key | Action |
                | --- | --- |
                \(rows(app.bindings))

                """
        }
        return text
    }

    /// The errorwatch key table.
    public static let standard = Keymap(bindings: [
        KeyBinding(keys: [.character("q")], command: .dashboard(.quit), summary: "Quit", hint: "quit"),
        KeyBinding(
            keys: [.character("?")], command: .dashboard(.toggleHelp), summary: "Toggle this help",
            hint: "help"),
        KeyBinding(keys: [.tab], command: .dashboard(.focusNext), summary: "Focus next pane", hint: "focus"),
        KeyBinding(keys: [.backTab], command: .dashboard(.focusPrevious), summary: "Focus previous pane"),
        KeyBinding(keys: [.character("k"), .up], command: .dashboard(.scrollUp), summary: "Up a line (select)"),
        KeyBinding(
            keys: [.character("j"), .down], command: .dashboard(.scrollDown),
            summary: "Down a line (select)", hint: "scroll"),
        KeyBinding(keys: [.pageUp], command: .dashboard(.pageUp), summary: "Scroll up a page"),
        KeyBinding(keys: [.pageDown], command: .dashboard(.pageDown), summary: "Scroll down a page"),
        KeyBinding(keys: [.character("g"), .home], command: .dashboard(.scrollTop), summary: "Jump to the oldest"),
        KeyBinding(
            keys: [.character("G"), .end], command: .dashboard(.scrollBottom),
            summary: "Jump to newest, follow"),
        KeyBinding(
            keys: [.character("/")], command: .dashboard(.beginTextFilter),
            summary: "Filter with a query", hint: "query"),
        KeyBinding(keys: [.escape], command: .dashboard(.cancel), summary: "Close view, clear query"),
        KeyBinding(
            keys: (1...9).map { .character(Character(String($0))) }, keyLabel: "1…9",
            command: .dashboard(.toggleTypeFilter), summary: "Toggle type N filter",
            hint: "type"),
        KeyBinding(keys: [.character("0")], command: .dashboard(.clearTypeFilters), summary: "Clear type filters"),
        KeyBinding(
            keys: [.character("p"), .character(" ")], command: .dashboard(.togglePause),
            summary: "Pause/resume Logs", hint: "pause"),
        KeyBinding(
            keys: [.character("e")], command: .dashboard(.nextError), summary: "Next error in Logs",
            hint: "next err"),
        KeyBinding(
            keys: [.character("E")], command: .dashboard(.previousError),
            summary: "Previous error in Logs"),
        KeyBinding(
            keys: [.character("t")], command: .dashboard(.cycleTheme), summary: "Cycle colour themes",
            hint: "theme"),
        KeyBinding(keys: [.ctrl("l")], command: .dashboard(.redraw), summary: "Redraw the screen"),
        KeyBinding(
            keys: [.enter], command: .dashboard(.openDetail), summary: "Open the selection",
            hint: "details"),
        KeyBinding(
            keys: [.character("v")], command: .dashboard(.toggleErrorsView),
            summary: "Alerts/Issues/…/Services", hint: "issues"),
        KeyBinding(
            keys: [.character("O")], command: .dashboard(.cycleIssueOrder), summary: "Sort issues or traces"),
        KeyBinding(keys: [.character("W")], command: .dashboard(.saveMatching), summary: "Save matching events"),
        KeyBinding(
            keys: [.character("R")], command: .dashboard(.triage(.resolve)), summary: "Resolve the issue"),
        KeyBinding(
            keys: [.character("N")], command: .dashboard(.triage(.resolveInNextRelease)),
            summary: "Resolve in next release"),
        KeyBinding(
            keys: [.character("I")], command: .dashboard(.triage(.ignore(.forever))), summary: "Ignore the issue"),
        KeyBinding(
            keys: [.character("Z")], command: .dashboard(.triage(.ignore(.duration(3_600)))),
            summary: "Snooze 1h, again 1d, 1w"),
        KeyBinding(
            keys: [.character("c")], command: .dashboard(.triage(.ignore(.occurrences(100)))),
            summary: "Ignore until 100 more"),
        KeyBinding(keys: [.character("U")], command: .dashboard(.triage(.reopen)), summary: "Reopen the issue"),
    ])
}
