import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Screens as text plus style tables under `__Snapshots__/SnapshotTests/`. Re-record with
/// `SNAPSHOT_TESTING_RECORD=all swift test --filter SnapshotTests`, then read the .txt files before committing.
@MainActor
struct SnapshotTests {
    /// `part` alone, drawn from `state` into a buffer of `width` × `height`.
    func pane<Part: Widget>(
        _ part: Part.Type, width: Int, height: Int, state: DashboardState = .sample()
    ) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: width, height: height)
        let palette = Palette(theme: state.screen.theme, depth: state.screen.colorDepth)
        part.render(part.input(state, palette: palette), in: buffer.area, into: &buffer)
        return buffer
    }

    @Test func dashboard80x24() {
        assertSnapshot(of: Dashboard.render(.sample(width: 80, height: 24)), as: .screen)
    }

    @Test func dashboard120x40() {
        assertSnapshot(of: Dashboard.render(.sample(width: 120, height: 40)), as: .screen)
    }

    @Test func dashboard200x50() {
        assertSnapshot(of: Dashboard.render(.sample(width: 200, height: 50)), as: .screen)
    }

    @Test func dashboardNarrow50x30AsciiWithFilterAndPause() {
        var state = DashboardState.sample(width: 50, height: 30, unicode: false)
        for key: Key in [.character("3"), .character("/"), .character("a"), .enter, .character("p")] {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
        }
        _ = DashboardReducer.reduce(into: &state, action: .eventReceived(.fixture(1, at: state.screen.now)))
        assertSnapshot(of: Dashboard.render(state), as: .screen)
    }

    @Test func tooSmall() {
        assertSnapshot(of: Dashboard.render(.sample(width: 30, height: 8)), as: .screen)
    }

    @Test func helpOverlay() {
        for (width, height) in [(80, 24), (120, 40)] {
            var state = DashboardState.sample(width: width, height: height)
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
            assertSnapshot(of: Dashboard.render(state), as: .screen, named: "\(width)x\(height)")
        }
    }

    /// At 80×24 the overlay's rows do not fit: `G` scrolls to its last rows, and the bottom row says which rows
    /// are shown (issue 34, item 6: it had ended in "… (9 more; enlarge the terminal)").
    @Test func helpOverlayScrolls() {
        var state = DashboardState.sample(width: 80, height: 24)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
        let top = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(top.contains("rows 1–"))
        #expect(!top.contains("enlarge the terminal"))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("G")))
        let bottom = Dashboard.render(state)
        let bottomText = bottom.textLines().joined(separator: "\n")
        assertSnapshot(of: bottom, as: .screen, named: "80x24-scrolled")
        #expect(bottomText != top)
        // `k` moves one row back up at once, and closing and opening again starts at the top.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("k")))
        #expect(Dashboard.render(state).textLines().joined(separator: "\n") != bottomText)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
        #expect(Dashboard.render(state).textLines().joined(separator: "\n") == top)
        #expect(state.screen.showsHelp)
    }

    @Test func eachPane() {
        assertSnapshot(of: pane(ErrorsPane.self, width: 70, height: 8), as: .screen, named: "errors")
        assertSnapshot(of: pane(LogsPane.self, width: 100, height: 12), as: .screen, named: "logs")
        assertSnapshot(of: pane(MetricsPane.self, width: 70, height: 16), as: .screen, named: "metrics")
        assertSnapshot(of: pane(MetricsPane.self, width: 40, height: 20), as: .screen, named: "metrics-narrow")
        assertSnapshot(of: pane(StatusPane.self, width: 70, height: 5), as: .screen, named: "status")
        assertSnapshot(of: pane(HeaderBar.self, width: 100, height: 1), as: .screen, named: "header")
        assertSnapshot(of: pane(FooterBar.self, width: 100, height: 1), as: .screen, named: "footer")
        let empty = DashboardState(width: 80, height: 24, now: fixtureStart)
        assertSnapshot(of: Dashboard.render(empty), as: .screen, named: "empty-dashboard")
    }

    @Test func logsWithSelectionAndFilterPrompt() {
        var state = DashboardState.sample(width: 100, height: 30)
        for key: Key in [.character("e"), .character("E"), .character("/"), .character("o"), .character("r")] {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
        }
        assertSnapshot(of: Dashboard.render(state), as: .screen)
    }

    @Test func logsScrolledUpStopFollowing() {
        var state = DashboardState.sample(width: 100, height: 30)
        for key: Key in [.tab, .pageUp, .character("k")] {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
        }
        assertSnapshot(of: Dashboard.render(state), as: .screen)
    }

    @Test func eachThemeAtEachDepth() throws {
        // The files of Themes/, compiled in (ThemeTests.builtInThemesEqualTheThemesFolder keeps them equal).
        let themes = Theme.builtIn
        for theme in themes {
            for depth in [ColorDepth.colors256, .colors8, .monochrome] {
                let state = DashboardState.sample(width: 100, height: 30, colorDepth: depth, themes: [theme])
                assertSnapshot(of: Dashboard.render(state), as: .screen, named: "\(theme.name)-\(depth.rawValue)")
            }
        }
        let truecolor = DashboardState.sample(
            width: 100, height: 30, colorDepth: .truecolor,
            themes: themes.filter { $0.name == "solarized-dark" })
        assertSnapshot(of: Dashboard.render(truecolor), as: .screen, named: "solarized-dark-truecolor")
    }

    @Test func wideAndHostileText() {
        var state = DashboardState.sample(width: 100, height: 30, events: 20)
        let messages = [
            "接続がタイムアウトしました：サーバー応答なし 漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字",
            "🔥🔥 emoji storm 👩‍💻🇫🇷 e\u{301}\u{301} combining",
            "\u{1B}[2J\u{1B}[31mCLEARED\u{1B}]0;pwned\u{07} \u{9B}6n \u{202E}desrever",
            Sanitizer.sanitize(bytes: [0x62, 0x61, 0x64, 0xFF, 0xFE, 0xC0, 0xAF, 0x20, 0x75, 0x74, 0x66]),
            String(repeating: "very long message ", count: 40),
        ]
        for (index, message) in messages.enumerated() {
            _ = DashboardReducer.reduce(
                into: &state,
                action: .eventReceived(
                    DashboardEvent(
                        sequence: 900 + UInt64(index), timestamp: state.screen.now, kind: .error, level: .error,
                        source: "hostile",
                        typeName: "HostileError\u{1B}[0m", message: message)))
        }
        _ = DashboardReducer.reduce(
            into: &state,
            action: .alertReceived(
                AlertRecord(
                    fingerprint: "hostile", title: "サーバーエラー \u{1B}[5mblink", code: "X-1", severity: .critical,
                    category: .bug, count: 3, firstSeen: state.screen.now, lastSeen: state.screen.now, source: "hostile"
                )))
        assertSnapshot(of: Dashboard.render(state), as: .screen)
    }
}

extension Snapshotting where Value == ScreenBuffer, Format == String {
    /// A screen as its text lines followed by the compact style table (see `ScreenBuffer.snapshotText()`),
    /// stored as `.txt`.
    static var screen: Snapshotting<ScreenBuffer, String> {
        Snapshotting<String, String>.lines.pullback { (buffer: ScreenBuffer) in
            buffer.snapshotText()
        }
    }
}
