import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// An error reporter's report in the detail view: the chain, the stack trace with library frames folded (`f`),
/// the selected frame's source and variables (`,` `.`), tags, contexts, request and the SDK's breadcrumbs.
struct ReportDetailTests {
    static func report() -> ExceptionReport {
        let library = ExceptionReport.Frame(
            function: "run", module: "threading", file: "threading.py", line: 982, inApp: false,
            contextLine: "        self._target(*self._args)", variables: [.init("self", "<Thread>")])
        let own = ExceptionReport.Frame(
            function: "restock", module: "shop.stock", file: "shop/stock.py", line: 33, column: 5, inApp: true,
            preContext: ["def restock(run):", "    shelf = 'north-' + run"],
            contextLine: "    raise InventoryError(shelf)", postContext: ["", "def main():"],
            variables: [.init("run", "'a1'"), .init("shelf", "'north-a1\u{1B}[31m'")])
        let caller = ExceptionReport.Frame(function: "main", file: "shop/app.py", line: 10, inApp: true)
        return ExceptionReport(
            exceptions: [
                .init(
                    type: "InventoryError", value: "shelf north-a1 is empty", mechanism: "threading", handled: false,
                    frames: [library, caller, own]),
                .init(type: "KeyError", value: "'sku'", handled: true),
            ],
            tags: [.init("run", "a1")], contexts: [.init("runtime", [.init("name", "CPython")])],
            request: [.init("method", "POST"), .init("headers.Cookie", "[not kept]")],
            breadcrumbs: [
                .init(
                    timestamp: Date(timeIntervalSince1970: 1_800_000_000), category: "auth", level: "info",
                    message: "signed in", data: [.init("user", "ada")])
            ],
            about: [.init("release", "shop@1.4.2")], cut: ["frames: kept the first 50 and last 200 of 100000"])
    }

    static func state() -> DashboardState {
        var state = DashboardState.sample(width: 120, height: 60, events: 4)
        var event = DashboardEvent(
            sequence: 7_001, timestamp: Date(timeIntervalSince1970: 1_800_000_000.5), kind: .error, level: .error,
            source: "remote", typeName: "InventoryError", message: "shelf north-a1 is empty",
            from: "sentry sentry.python/2.75.0 shop@1.4.2 on sentry:127.0.0.1:43210")
        event.report = report()
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived([event]))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        _ = state.detail.reduce(.opened(.event(7_001)))
        return state
    }

    static func text(_ state: DashboardState) -> [String] {
        guard case .event(let sequence)? = state.detail.target, let event = DetailView.event(sequence, in: state) else {
            return []
        }
        return DetailView.eventLines(event, state: state, width: 100).map { $0.segments.map(\.text).joined() }
    }

    @Test func theChainFramesSourceAndVariablesAreShown() {
        let lines = Self.text(Self.state())
        #expect(lines.contains("InventoryError: shelf north-a1 is empty"))
        #expect(lines.contains("[unhandled · threading]"))
        #expect(lines.contains("from KeyError: 'sku'"))
        // The failing call first, the app's own frames shown, the library frame folded.
        let trace = lines.firstIndex { $0.hasPrefix("Stack trace") }!
        #expect(lines[trace].contains("f shows 1 library frame"))
        #expect(lines[trace + 1].hasPrefix("  InventoryError"))
        #expect(lines[trace + 2] == "▶ shop/stock.py:33:5 in restock")
        #expect(lines[trace + 3] == "  shop/app.py:10 in main")
        #expect(!lines.contains { $0.contains("threading.py") })
        // The selected frame's source, its failing line marked and numbered.
        #expect(lines.contains("  31 | def restock(run):"))
        #expect(lines.contains("▶ 33 |     raise InventoryError(shelf)"))
        #expect(lines.contains("  35 | def main():"))
        // Its variables, made safe to draw (the escape sequence is not passed through).
        #expect(lines.contains { $0.hasPrefix("run") && $0.hasSuffix("'a1'") })
        #expect(!lines.contains { $0.contains("\u{1B}") })
        #expect(lines.contains { $0.hasPrefix("headers.Cookie") && $0.hasSuffix("[not kept]") })
        #expect(lines.contains("-0.500s info auth  signed in"))
        #expect(lines.contains { $0.contains("user: ada") })
        #expect(lines.contains("frames: kept the first 50 and last 200 of 100000"))
    }

    @Test func commaAndPeriodSelectFramesAndFUnfoldsLibraryFrames() {
        var state = Self.state()
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(".")))
        var lines = Self.text(state)
        #expect(lines.contains("▶ shop/app.py:10 in main"))
        #expect(lines.contains("▶ ? | (the failing line was not sent)") || lines.contains("no source lines sent for this frame"))
        // Past the last frame it stays on the last.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(".")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(".")))
        #expect(state.detail.frame == 1)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(",")))
        #expect(state.detail.frame == 0)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("f")))
        lines = Self.text(state)
        #expect(lines.contains("  threading.py:982 in run  (library)"))
        #expect(lines.contains { $0.hasPrefix("Stack trace") && $0.contains("f folds library frames") })
        for _ in 0..<2 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("."))) }
        lines = Self.text(state)
        #expect(lines.contains("▶ threading.py:982 in run  (library)"))
        #expect(lines.contains { $0.hasPrefix("self") && $0.hasSuffix("<Thread>") })
        // Closing the view forgets the selection.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        #expect(state.detail.frame == 0)
        #expect(!state.detail.showsLibraryFrames)
    }

    @Test func theFrameKeysDoNothingWithoutAReport() {
        var state = DashboardState.sample(width: 120, height: 40, events: 4)
        let sequence = state.logs.lines.last!.sequence
        _ = state.detail.reduce(.opened(.event(sequence)))
        let before = state
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("f")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(".")))
        #expect(state.detail == before.detail)
    }
}
