import ArgumentParser
import ErrorStreaming
import ErrorWatchDemo
import ErrorWatchTerminal
import ErrorWatchUI
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The default command: the live dashboard, with the simulated app running inside it.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live", abstract: "Run the live dashboard (the default command).")

    @OptionGroup var appearance: AppearanceOptions

    @Option(name: .customLong("storm-rate"), help: "Errors per second during an error storm (S).")
    var stormRate = 5_000

    @Option(name: .customLong("storm-duration"), help: "How long an error storm lasts, e.g. 3s.", transform: parseDuration)
    var stormDuration: Duration = .seconds(3)

    @Flag(help: "After exit, print run statistics: frames, first-frame time, events, peak memory.")
    var stats = false

    func validate() throws {
        guard stormRate > 0, stormRate <= 10_000_000 else { throw ValidationError("--storm-rate must be 1…10000000") }
    }

    func run() throws {
        let launched = ContinuousClock.now
        // The locale comes first: ncursesw needs it to draw anything beyond ASCII.
        setlocale(LC_ALL, "")
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            printError("errorwatch: standard output is not a terminal; use `errorwatch render` to print the screen as text")
            throw ExitCode(2)
        }
        let environment = ProcessInfo.processInfo.environment
        let monochrome = appearance.noColor || environment["NO_COLOR"].map { !$0.isEmpty } == true
        let selection = ThemeSelection.resolve(
            requested: appearance.theme, themesDirectory: appearance.themesDirectory, environment: environment)

        let backend: NCursesBackend
        do {
            backend = try NCursesBackend(options: .init(escapeDelay: 25, monochrome: monochrome))
        } catch {
            printError("errorwatch: \(error)")
            throw ExitCode(error == .notATerminal ? 2 : 1)
        }

        let configuration = DemoConfiguration(seed: appearance.seed, stormRate: stormRate, stormDuration: stormDuration)
        let runtime = DashboardRuntime(clock: DemoClock(ContinuousClock()), startDate: Date(), configuration: configuration)
        runtime.inbox.setWaker { [waker = backend.waker] in waker.wake() }

        var state = DashboardState(
            width: backend.size.width, height: backend.size.height, now: runtime.now, themes: selection.themes,
            colorDepth: monochrome ? .monochrome : backend.colorDepth, unicode: localeIsUTF8())
        state.themeIndex = selection.index
        if let warning = selection.warning { _ = DashboardReducer.reduce(into: &state, action: .statusMessage(warning)) }

        let loop = DashboardLoop(
            backend: backend, state: state, drain: runtime.inbox.drain, perform: runtime.perform,
            now: { runtime.now })
        runtime.start()
        loop.run()
        let statistics = runtime.stream.statistics
        let counted = runtime.sampleMetrics().totalErrors
        runtime.stop()
        backend.stop()
        if stats {
            let elapsed = launched.duration(to: .now)
            let firstFrame = loop.firstFrameAt.map { launched.duration(to: $0) }
            print(
                """
                errorwatch stats
                  run time         \(elapsed.formattedSeconds)
                  first frame      \(firstFrame.map { "\($0.wholeMilliseconds) ms after launch" } ?? "none")
                  frames drawn     \(loop.framesDrawn) (peak \(loop.peakFramesPerSecond) in one second)
                  errors added     \(statistics.added)
                  errors counted   \(counted) (Metrics pane total)
                  dropped (views)  \(statistics.dropped)
                  peak memory      \(peakResidentKilobytes().map { "\($0 / 1024) MB (VmHWM)" } ?? "unknown")
                """)
        }
    }
}

/// Whether the current locale's character set is UTF-8 (braille sparklines, box drawing, wide glyphs).
func localeIsUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Parses `10s`, `500ms`, `2m`, `1.5s`.
func parseDuration(_ text: String) throws -> Duration {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
        let number = text.dropLast(suffix.count)
        if let value = Double(number), value >= 0, value.isFinite, value * scale <= 86_400 {
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
    }
    throw ValidationError("\"\(text)\" is not a duration like 10s, 500ms or 2m")
}

/// The process's peak resident set size in kilobytes, from /proc/self/status (VmHWM).
func peakResidentKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
    }
    return nil
}

extension Duration {
    var wholeMilliseconds: Int64 {
        let (s, atto) = components
        return s * 1000 + atto / 1_000_000_000_000_000
    }

    var formattedSeconds: String {
        let ms = wholeMilliseconds
        return "\(ms / 1000).\(String(format: "%03d", ms % 1000)) s"
    }
}
