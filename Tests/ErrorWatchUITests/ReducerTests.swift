import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

struct ReducerTests {
    func reduce(_ state: inout DashboardState, _ actions: DashboardAction...) -> [DashboardEffect] {
        actions.flatMap { DashboardReducer.reduce(into: &state, action: $0) }
    }

    func press(_ state: inout DashboardState, _ keys: Key...) -> [DashboardEffect] {
        keys.flatMap { DashboardReducer.reduce(into: &state, action: .keyPressed($0)) }
    }

    /// An event that happened after every line of ``DashboardState/sample(width:height:events:colorDepth:unicode:themes:)``
    /// (Logs keeps its lines in time order), later for a larger `n`.
    func event(_ n: Int, kind: DashboardEvent.Kind = .error, type: String = "AuthError") -> DashboardEvent {
        DashboardEvent(
            sequence: UInt64(n), timestamp: fixtureStart.addingTimeInterval(800 + Double(n) / 1_000), kind: kind,
            level: .error, source: "test", typeName: type, message: "message \(n)")
    }

    @Test func quitSetsFlagAndReturnsEffect() {
        var state = DashboardState(now: fixtureStart)
        #expect(press(&state, .character("q")) == [.quit])
        #expect(state.quitRequested)
    }

    @Test func everyBindingIsReachableAndUnknownKeysAreIgnored() {
        for binding in Keymap.standard.bindings {
            for key in binding.keys { #expect(Keymap.standard.command(for: key) == binding.command) }
        }
        var state = DashboardState.sample()
        let before = state.generation
        #expect(press(&state, .character("X"), .function(7), .ctrl("x")).isEmpty)
        #expect(state.generation == before)
    }

    @Test func keysAreTheOnesTheIssueAsksFor() {
        let expected: [(Key, KeyCommand)] = [
            (.character("q"), .dashboard(.quit)), (.character("?"), .dashboard(.toggleHelp)),
            (.tab, .dashboard(.focusNext)), (.backTab, .dashboard(.focusPrevious)),
            (.character("j"), .dashboard(.scrollDown)), (.character("k"), .dashboard(.scrollUp)),
            (.pageUp, .dashboard(.pageUp)), (.pageDown, .dashboard(.pageDown)),
            (.character("g"), .dashboard(.scrollTop)), (.character("G"), .dashboard(.scrollBottom)),
            (.character("/"), .dashboard(.beginTextFilter)), (.escape, .dashboard(.cancel)),
            (.character("5"), .dashboard(.toggleTypeFilter)), (.character("0"), .dashboard(.clearTypeFilters)),
            (.character("p"), .dashboard(.togglePause)), (.character(" "), .dashboard(.togglePause)),
            (.character("e"), .dashboard(.nextError)), (.character("E"), .dashboard(.previousError)),
            (.character("t"), .dashboard(.cycleTheme)), (.ctrl("l"), .dashboard(.redraw)),
        ]
        for (key, command) in expected { #expect(Keymap.standard.command(for: key) == command, "\(key)") }
        // The dashboard's own table binds no app keys: those come from attached apps.
        #expect(Keymap.standard.appBindings.isEmpty)
        #expect(Keymap.standard.command(for: .character("s")) == nil)
    }

    @Test func attachedAppKeysReturnAppCommands() {
        var state = DashboardState(now: fixtureStart)
        #expect(press(&state, .character("s")).isEmpty, "no app attached: the key means nothing")
        _ = DashboardReducer.reduce(into: &state, action: .appAttached(.fixture))
        #expect(
            press(&state, .character("s"), .character("S"), .character("r")) == [
                .appCommand(AppCommand(app: "demo", id: "serverErrorBurst")),
                .appCommand(AppCommand(app: "demo", id: "errorStorm")),
                .appCommand(AppCommand(app: "demo", id: "recoverAll")),
            ])
        #expect(state.screen.statusMessage == "▶ Recover everything")
    }

    @Test func anAppCannotTakeTheDashboardsKeys() {
        var state = DashboardState(now: fixtureStart)
        let greedy = AttachedApp(
            name: "greedy", title: "Greedy",
            bindings: [
                KeyBinding(keys: [.character("q")], command: .app(AppCommand(app: "greedy", id: "quit")), summary: "Q"),
                KeyBinding(
                    keys: [.character("t"), .character("z")], command: .app(AppCommand(app: "greedy", id: "zap")),
                    summary: "Zap"),
            ])
        _ = DashboardReducer.reduce(into: &state, action: .appAttached(greedy))
        #expect(state.feeds.apps.first?.bindings.map(\.keyLabel) == ["z"])
        #expect(state.keymap.command(for: .character("q")) == .dashboard(.quit))
        #expect(state.keymap.command(for: .character("z")) == .app(AppCommand(app: "greedy", id: "zap")))
        #expect(state.screen.statusMessage?.contains("q t") == true)
    }

    @Test func statusesAreUpsertedByServiceAndName() {
        var state = DashboardState(now: fixtureStart)
        let first = StatusEntry(
            service: "shop", name: "reconciler", state: "running", health: .ok, changedAt: fixtureStart)
        var second = first
        second.state = "stalled"
        second.health = .failing
        let other = StatusEntry(
            service: "billing", name: "reconciler", state: "idle", health: .idle, changedAt: fixtureStart)
        for status in [first, other, second] {
            _ = DashboardReducer.reduce(into: &state, action: .statusChanged(status))
        }
        #expect(state.feeds.statuses.map(\.state) == ["stalled", "idle"])
        for index in 0..<(DashboardState.statusCapacity + 10) {
            _ = DashboardReducer.reduce(
                into: &state,
                action: .statusChanged(
                    StatusEntry(service: "flood", name: "s\(index)", state: "x", health: .ok, changedAt: fixtureStart)))
        }
        #expect(state.feeds.statuses.count == DashboardState.statusCapacity)
    }

    @Test func ctrlLRedrawsAndHelpToggles() {
        var state = DashboardState(now: fixtureStart)
        #expect(press(&state, .ctrl("l"), .ctrl("L")) == [.redrawAll, .redrawAll])
        _ = press(&state, .character("?"))
        #expect(state.screen.showsHelp)
        _ = press(&state, .escape)
        #expect(!state.screen.showsHelp)
    }

    @Test func focusCyclesBothWays() {
        var state = DashboardState(now: fixtureStart)
        _ = press(&state, .tab, .tab)
        #expect(state.screen.focus == .metrics)
        _ = press(&state, .backTab, .backTab, .backTab)
        #expect(state.screen.focus == .status)
    }

    @Test func typeFiltersToggleByNumberAndZeroClears() {
        var state = DashboardState.sample()
        _ = press(&state, .character("1"), .character("3"))
        #expect(state.filter.types == ["ServerError", "AuthError"])
        _ = press(&state, .character("1"))
        #expect(state.filter.types == ["AuthError"])
        #expect(
            LogsPane.visibleRows(state.logs, filter: state.filter, count: 50).allSatisfy { $0.typeName == "AuthError" })
        _ = press(&state, .character("9"))
        #expect(state.screen.statusMessage == "no error type 9 in Metrics")
        _ = press(&state, .character("0"))
        #expect(state.filter.types.isEmpty)
    }

    @Test func queryIsTypedAfterSlashAppliedByEnterAndClearedByEscape() {
        var state = DashboardState.sample()
        _ = press(
            &state, .character("/"), .character("5"), .character("0"), .character("3"), .character("x"),
            .backspace)
        #expect(state.filter.isEditing)
        #expect(state.filter.draft == "503")
        #expect(state.textFilter.isEmpty, "a query applies on Enter")
        #expect(state.filter.types.isEmpty, "digits go to the query while typing")
        _ = press(&state, .enter)
        #expect(state.textFilter == "503")
        #expect(!state.filter.isEditing)
        #expect(
            LogsPane.visibleRows(state.logs, filter: state.filter, count: 20).allSatisfy { $0.message.contains("503") })
        #expect(state.visibleAlerts.map(\.title) == ["Server unavailable"])
        _ = press(&state, .escape)
        #expect(state.textFilter.isEmpty)
    }

    @Test func textFilterIgnoresASCIICase() {
        var state = DashboardState.sample()
        func query(_ text: String) {
            // Esc clears the query in force, `/` opens the prompt, Enter applies what was typed.
            _ = press(&state, .escape, .character("/"))
            for character in text { _ = press(&state, .character(character)) }
            _ = press(&state, .enter)
        }
        query("SERVICE unavail")
        let rows = LogsPane.visibleRows(state.logs, filter: state.filter, count: 100)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.message.contains("Service Unavailable") })
        query("漢字")
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: 100).isEmpty)
    }

    @Test func pauseFreezesLogsAndCountsArrivals() {
        var state = DashboardState.sample(events: 50)
        let frozen = LogsPane.visibleRows(state.logs, filter: state.filter, count: 10)
        _ = press(&state, .character("p"))
        _ = reduce(&state, .eventsReceived((1000..<1007).map { event($0) }), .eventReceived(event(2000)))
        #expect(state.logs.arrivedWhilePaused == 8)
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: 10) == frozen)
        #expect(Dashboard.render(state).text(ofRow: 0).contains("PAUSED +8"))
        _ = press(&state, .character(" "))
        #expect(!state.logs.isPaused && state.logs.arrivedWhilePaused == 0)
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: 1).first?.sequence == 2000)
    }

    @Test func scrollingStopsFollowingAndGReturnsToTail() {
        var state = DashboardState.sample(events: 200)
        _ = press(&state, .tab)
        #expect(state.screen.focus == .logs)
        _ = press(&state, .character("k"), .up, .pageUp)
        let rows = DashboardLayout(width: 120, height: 40).logRows
        #expect(state.logs.scroll == 2 + rows)
        let view = LogsPane.visibleRows(state.logs, filter: state.filter, count: rows)
        _ = reduce(&state, .eventReceived(event(5000)))
        #expect(
            LogsPane.visibleRows(state.logs, filter: state.filter, count: rows) == view, "a scrolled view does not move"
        )
        _ = press(&state, .character("G"))
        #expect(state.logs.scroll == 0)
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: 1).first?.sequence == 5000)
        _ = press(&state, .character("g"))
        #expect(LogsPane.visibleRows(state.logs, filter: state.filter, count: rows).first?.sequence == 1)
        _ = press(&state, .pageDown, .character("j"), .down)
        #expect(state.logs.scroll == state.logs.lines.count - rows - rows - 2)
    }

    @Test func nextAndPreviousErrorSelectErrorLines() throws {
        var state = DashboardState.sample(events: 40)
        _ = press(&state, .character("e"))
        let newest = try #require(state.logs.lines.last { $0.kind == .error })
        #expect(state.logs.selectedSequence == newest.sequence)
        _ = press(&state, .character("E"))
        let previous = try #require(state.logs.lines.last { $0.kind == .error && $0.sequence < newest.sequence })
        #expect(state.logs.selectedSequence == previous.sequence)
        _ = press(&state, .character("e"))
        #expect(state.logs.selectedSequence == newest.sequence)
        _ = press(&state, .escape)
        #expect(state.logs.selectedSequence == nil)
    }

    @Test func themesCycleAndLoadedThemesJoinTheList() {
        var state = DashboardState(now: fixtureStart, themes: [.default, Theme(name: "light", styles: [:])])
        _ = press(&state, .character("t"))
        #expect(state.screen.theme.name == "light")
        _ = press(&state, .character("t"))
        #expect(state.screen.theme.name == "default")
        _ = reduce(&state, .themeLoaded(Theme(name: "mine", styles: [:])))
        #expect(state.screen.theme.name == "mine" && state.screen.themes.count == 3)
        _ = reduce(&state, .themeFailed("x.json:1:2: malformed JSON"))
        #expect(state.screen.theme.name == "mine")
        #expect(state.screen.statusMessage == "theme not loaded: x.json:1:2: malformed JSON")
    }

    /// Issue 35: the palette is fitted when the theme or the colour depth changes, not every frame; it must be the
    /// one fitting the current theme to the current depth after every change.
    @Test func thePaletteFollowsTheThemeAndTheColourDepth() {
        var state = DashboardState(now: fixtureStart, themes: [.default, Theme(name: "light", styles: [:])])
        func fitted() -> Palette { Palette(theme: state.screen.theme, depth: state.screen.colorDepth) }
        let first = state.screen.palette
        #expect(first == fitted())
        _ = press(&state, .character("t"))
        #expect(state.screen.palette == fitted() && state.screen.palette != first)
        _ = press(&state, .character("t"))
        #expect(state.screen.palette == first)
        _ = reduce(&state, .themeLoaded(Theme(name: "mine", styles: [:])))
        #expect(state.screen.palette == fitted() && state.screen.palette != first)
        _ = reduce(&state, .themeSelected(0))
        #expect(state.screen.palette == first)
        _ = reduce(&state, .colorDepthDetected(.monochrome))
        #expect(state.screen.palette == fitted() && state.screen.palette != first)
    }

    @Test func alertsUpsertByFingerprintAndIgnoreBackground() {
        var state = DashboardState(now: fixtureStart)
        func alert(_ fingerprint: String, count: Int, origin: ErrorOrigin = .user) -> AlertRecord {
            AlertRecord(
                fingerprint: fingerprint, title: "Server unavailable", code: "N-503", severity: .error,
                category: .transient, count: count, firstSeen: fixtureStart, lastSeen: fixtureStart, source: "api",
                origin: origin)
        }
        _ = reduce(
            &state, .alertReceived(alert("a", count: 1)), .alertReceived(alert("b", count: 1)),
            .alertReceived(alert("a", count: 12)), .alertReceived(alert("bg", count: 3, origin: .background)))
        #expect(state.errors.alerts.map(\.fingerprint) == ["a", "b"])
        #expect(state.errors.alerts.first?.count == 12)
        _ = reduce(&state, .tick(fixtureStart.addingTimeInterval(DashboardState.alertExpiresAfter + 1)))
        #expect(state.errors.alerts.isEmpty, "alerts expire")
    }

    @Test func batchingEqualsOneByOneAndBumpsGenerationOnce() {
        var batched = DashboardState(now: fixtureStart, logCapacity: 5)
        var single = batched
        let events = (1...8).map { event($0) }
        let generation = batched.generation
        _ = reduce(&batched, .eventsReceived(events))
        for e in events { _ = reduce(&single, .eventReceived(e)) }
        #expect(batched.logs.lines == single.logs.lines)
        #expect(batched.logs.lines.map(\.sequence) == [4, 5, 6, 7, 8], "ring buffer keeps the newest")
        #expect(batched.generation == generation + 1)
    }

    @Test func ticksChangeGenerationOnlyWhenTheSecondChanges() {
        var state = DashboardState(now: fixtureStart)
        let generation = state.generation
        _ = reduce(&state, .tick(fixtureStart.addingTimeInterval(0.4)))
        #expect(state.generation == generation)
        _ = reduce(&state, .tick(fixtureStart.addingTimeInterval(1.1)))
        #expect(state.generation == generation + 1)
    }

    @Test func statusMessagesExpire() {
        var state = DashboardState(now: fixtureStart)
        _ = reduce(&state, .appAttached(.fixture))
        _ = press(&state, .character("b"))
        #expect(state.screen.statusMessage == "▶ Hit a software bug")
        _ = reduce(&state, .tick(fixtureStart.addingTimeInterval(4)))
        #expect(state.screen.statusMessage != nil)
        _ = reduce(&state, .tick(fixtureStart.addingTimeInterval(5)))
        #expect(state.screen.statusMessage == nil)
    }

    @Test func incomingTextIsSanitised() {
        var state = DashboardState(now: fixtureStart)
        var hostile = event(1)
        hostile.message = "boom\u{1B}[31mred\u{1B}]0;pwned\u{07}"
        _ = reduce(&state, .eventReceived(hostile), .resized(width: 100, height: 30))
        #expect(state.logs.lines.first?.message == "boom␛[31mred␛]0;pwned␇")
        #expect(state.screen.width == 100 && state.screen.height == 30)
    }
}
