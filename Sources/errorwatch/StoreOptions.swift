import ArgumentParser
import ErrorWatchRuntime
import ErrorWatchStore
import Foundation

/// `--store PATH`, `--no-store`, `--store-max-size`: where the live dashboard keeps its issues.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The store file (default: $XDG_STATE_HOME/errorwatch/store.sqlite, "
                + "else ~/.local/state/errorwatch/store.sqlite).",
            valueName: "path"))
    var path: String?

    @Flag(name: .customLong("no-store"), help: "Keep nothing after exit: no store.")
    var noStore = false

    @Option(
        name: .customLong("store-max-size"),
        help: ArgumentHelp(
            "The most the store's file and its log may take together, e.g. 256M, 2G (default: 256M); beyond it "
                + "the oldest occurrences go first.",
            valueName: "size"),
        transform: parseSize)
    var maxSize: Int64 = IssueStore.defaultMaxSize

    func validate() throws {
        if noStore, path != nil { throw ValidationError("--store and --no-store: choose one") }
    }

    /// Opens the store and hands it to `runtime`, or says in the header (and on stderr after exit) why the dashboard
    /// runs without one. Never fails the run.
    func attach(to runtime: DashboardRuntime) {
        guard !noStore else { return }
        Self.attach(path: path ?? IssueStore.defaultPath(), maxSize: maxSize, to: runtime)
    }

    /// Opens the store at `path` and hands it to `runtime`, or says why the dashboard runs without one.
    static func attach(path: String, maxSize: Int64 = IssueStore.defaultMaxSize, to runtime: DashboardRuntime) {
        do {
            let store = try IssueStore.open(at: path, maxSize: maxSize)
            if let notice = store.openingNotice { printError("errorwatch: \(notice)") }
            try runtime.useStore(store)
        } catch {
            printError("errorwatch: running without a store: \(error)")
            runtime.reportStoreUnavailable(error.description)
        }
    }
}

/// `256M`, `2G`, `512K`, `1000000` (bytes) → bytes.
func parseSize(_ text: String) throws -> Int64 {
    let units: [(String, Int64)] = [("K", 1_024), ("M", 1_024 * 1_024), ("G", 1_024 * 1_024 * 1_024)]
    var scale: Int64 = 1
    var number = Substring(text)
    for (suffix, size) in units where text.uppercased().hasSuffix(suffix) {
        scale = size
        number = number.dropLast()
    }
    guard let value = Int64(number), value > 0, value <= Int64.max / scale, value * scale >= 64 * 1_024 else {
        throw ValidationError("size \(text.debugDescription): expected a number of bytes of at least 64K, e.g. 256M")
    }
    return value * scale
}
