import ArgumentParser
import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchRuntime
import ErrorWatchStore
import ErrorWatchUI
import Foundation

/// `errorwatch render`: runs the dashboard headless on a simulated clock and prints the final screen as text.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Run the dashboard headless on a simulated clock and print the final screen as text.",
        discussion: """
            The same size, seed, keys and duration always print the same screen: use it for bug reports, \
            docs and tests. Keys are pressed evenly spaced over the duration.
            Example: errorwatch render --size 120x40 --seed 7 --keys "l i l r l" --duration 10s
            """)

    @OptionGroup var appearance: AppearanceOptions

    @Option(help: ArgumentHelp("Screen size as COLUMNSxROWS.", valueName: "WxH"), transform: parseSize)
    var size: Size = Size(width: 120, height: 40)

    @Option(
        help: ArgumentHelp(
            "Keys to press, separated by spaces: characters or names like Tab, Esc, Space, Up, PgDn, Ctrl-L.",
            valueName: "keys"))
    var keys: String = ""

    @Option(
        help: "Simulated time from start to the printed screen, e.g. 10s (with --from: the whole recording).",
        transform: parseDuration)
    var duration: Duration?

    @Option(
        help: ArgumentHelp("Colour depth to fit the theme to: truecolor, 256, 16, 8 or none.", valueName: "depth"),
        transform: parseDepth)
    var colors: ColorDepth = .colors256

    @Flag(help: "Also print the table of styles (colours and attributes) after the text.")
    var styles = false

    @Flag(name: .customLong("ascii"), help: "Draw as for a non-UTF-8 locale (ASCII sparkline and borders).")
    var ascii = false

    @Option(help: ArgumentHelp("Play this NDJSON recording instead of running the demo app.", valueName: "file"))
    var from: String?

    @Option(help: "Playback speed of --from, from 0.01 to 10000.")
    var speed: Double = 1

    @Option(
        name: .customLong("max-gap"),
        help: ArgumentHelp(
            "With --from: play a silence longer than this (in playback time) as this long, and mark it; none or 0 "
                + "plays every silence in full. (default: 5s)",
            valueName: "duration"),
        transform: parseMaximumGap)
    var maximumGap = MaximumGap(limit: RecordingPlayer.defaultMaximumGap)

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "Show this store's issues (read only: a render never writes to a store, nor reads one without this); "
                + "the screen's time is then the newest issue's last seen, unless --from sets it.",
            valueName: "path"))
    var storePath: String?

    func validate() throws {
        if case .failure(let error) = Key.parseSequence(keys) { throw ValidationError(error.description) }
        try validateSpeed(speed)
    }

    func run() throws {
        let keyList = try Key.parseSequence(keys).get()
        // A render is a reproducible artefact: NO_COLOR does not change it (ask with --colors none or --no-color).
        let (monochrome, selection) = appearance.resolve(honoringNoColor: false)
        var player: RecordingPlayer?
        var length = Duration.zero
        if let from {
            do {
                let opened = try RecordingPlayer(path: from, speed: speed, maximumGap: maximumGap.limit)
                // Keys are spaced over the whole recording, so its length is measured first: one more pass over
                // the file, in the same bounded memory, linear in its lines whatever its times.
                if duration == nil { length = try opened.measure().playingTime }
                player = opened
            } catch {
                printError("errorwatch: \(error)")
                throw ExitCode(1)
            }
        }
        var issueStore: IssueStore?
        var startDate: Date?
        if let storePath {
            guard FileManager.default.fileExists(atPath: storePath) else {
                printError("errorwatch: no store at \(storePath)")
                throw ExitCode(1)
            }
            do {
                let opened = try IssueStore.open(at: storePath)
                if let notice = opened.openingNotice { printError("errorwatch: \(notice)") }
                // The screen reads as it did at the store's last event, whenever it is rendered.
                if let newest = try opened.issues(changedAfter: 0, limit: 1).issues.first?.record.lastSeen {
                    startDate = Date(timeIntervalSince1970: newest.timeIntervalSince1970.rounded(.up))
                }
                issueStore = opened
            } catch {
                printError("errorwatch: \(error)")
                throw ExitCode(1)
            }
        }
        let seed = appearance.seed
        let demo: @Sendable (DashboardRuntime) -> AppAttachment = { runtime in
            DemoAttachment.make(in: runtime, configuration: DemoConfiguration(seed: seed))
        }
        var options = HeadlessRenderer.Options(
            // A store is shown alone: the demo app runs only when neither a recording nor a store is given.
            width: size.width, height: size.height, app: player == nil && issueStore == nil ? demo : nil,
            keys: keyList, duration: duration ?? (player == nil ? .seconds(10) : length + .seconds(1)),
            themes: selection.themes, themeIndex: selection.index,
            colorDepth: monochrome ? .monochrome : colors, unicode: !ascii,
            statusMessage: appearance.theme == nil ? nil : selection.warning, recording: player)
        options.store = issueStore
        if let startDate { options.startDate = startDate }
        let outcome = HeadlessRenderer(options: options).run()
        let text = outcome.screen.snapshotText(styles: styles)
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    }
}

struct Size: Sendable {
    var width: Int
    var height: Int
}

func parseSize(_ text: String) throws -> Size {
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
        (1...1000).contains(width), (1...1000).contains(height)
    else { throw ValidationError("\"\(text)\" is not a size like 120x40 (1…1000 each)") }
    return Size(width: width, height: height)
}

func parseDepth(_ text: String) throws -> ColorDepth {
    switch text.lowercased() {
    case "truecolor", "24bit": return .truecolor
    case "256": return .colors256
    case "16": return .colors16
    case "8": return .colors8
    case "none", "mono", "monochrome", "0": return .monochrome
    default: throw ValidationError("\"\(text)\" is not a colour depth (truecolor, 256, 16, 8 or none)")
    }
}
