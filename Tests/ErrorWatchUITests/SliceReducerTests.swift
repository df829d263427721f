import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Each slice reduces its own small `Action` and nothing else: these tests build a slice alone, with no
/// `DashboardState` and no layout, and hand it its actions (what it needs of the filters, the time or the page size
/// comes with them).
struct SliceReducerTests {
    func line(_ n: Int, kind: DashboardEvent.Kind = .log) -> DashboardEvent {
        DashboardEvent(
            sequence: UInt64(n), timestamp: fixtureStart.addingTimeInterval(Double(n)), kind: kind, level: .info,
            source: "test", typeName: kind == .error ? "AuthError" : "", message: "line \(n)")
    }

    @Test func logsScrollPauseAndSelectOnTheirOwn() {
        var logs = LogsState(capacity: 100)
        let all = FilterState()
        let received = logs.reduce(.received((1...30).map { line($0, kind: $0 % 7 == 0 ? .error : .log) }, filter: all))
        #expect(received)
        _ = logs.reduce(.scrolled(.pageUp, rows: 10, filter: all))
        #expect(logs.scroll == 10)
        #expect(logs.visibleRows(all, count: 10).map(\.sequence) == Array(11...20))
        _ = logs.reduce(.scrolled(.top, rows: 10, filter: all))
        #expect(logs.scroll == 20, "at most the lines above the first page")
        _ = logs.reduce(.scrolled(.up, rows: 10, filter: all))
        #expect(logs.scroll == 20)
        _ = logs.reduce(.scrolled(.bottom, rows: 10, filter: all))
        #expect(logs.scroll == 0)

        // `e` selects the newest error line and scrolls it into view; `E` the one before.
        let found = logs.reduce(.errorStepped(newer: true, rows: 10, filter: all))
        #expect(found)
        #expect(logs.selectedSequence == 28)
        _ = logs.reduce(.errorStepped(newer: false, rows: 10, filter: all))
        #expect(logs.selectedSequence == 21)
        _ = logs.reduce(.selectionCleared)
        #expect(logs.selectedSequence == nil)
        var quiet = LogsState()
        let none = quiet.reduce(.errorStepped(newer: true, rows: 10, filter: all))
        #expect(!none, "no error line to select")

        // Paused, arrivals are counted and the view stays; resuming returns to the tail.
        _ = logs.reduce(.pauseToggled)
        _ = logs.reduce(.received([line(31), line(32)], filter: all))
        #expect(logs.isPaused && logs.arrivedWhilePaused == 2 && logs.scroll == 2)
        _ = logs.reduce(.pauseToggled)
        #expect(!logs.isPaused && logs.arrivedWhilePaused == 0 && logs.scroll == 0)
    }

    @Test func logsRefilterWhenTheFilterTheyAreGivenChanges() throws {
        var logs = LogsState()
        _ = logs.reduce(.received((1...20).map { line($0, kind: $0 % 5 == 0 ? .error : .log) }, filter: FilterState()))
        var errorsOnly = FilterState()
        _ = errorsOnly.reduce(.submitted(.success(try Query.parse("level:info type:AuthError").get())))
        _ = logs.reduce(.filterChanged(errorsOnly))
        #expect(logs.matching(errorsOnly).map(\.sequence) == [5, 10, 15, 20])
        _ = logs.reduce(.received([line(25, kind: .error), line(26)], filter: errorsOnly))
        #expect(logs.matching(errorsOnly).map(\.sequence) == [5, 10, 15, 20, 25])
    }

    @Test func theFilterEditsItsQueryOnItsOwn() {
        var filter = FilterState()
        _ = filter.reduce(.editingBegan)
        for character in "level:nope" { _ = filter.reduce(.typed(character)) }
        _ = filter.reduce(.submitted(Query.parse(filter.draft)))
        #expect(filter.isEditing && filter.error != nil && filter.query.isEmpty, "an error keeps the query in force")
        for _ in 0..<4 { _ = filter.reduce(.erased) }
        for character in "error" { _ = filter.reduce(.typed(character)) }
        _ = filter.reduce(.submitted(Query.parse(filter.draft)))
        #expect(!filter.isEditing && filter.error == nil && filter.query.text == "level:error")
        _ = filter.reduce(.typeToggled("AuthError"))
        #expect(filter.types == ["AuthError"] && filter.isActive)
        _ = filter.reduce(.typesCleared)
        _ = filter.reduce(.queryCleared)
        #expect(!filter.isActive)
        var full = FilterState()
        for _ in 0..<200 { _ = full.reduce(.typed("x")) }
        let typed = full.reduce(.typed("x"))
        #expect(!typed, "the draft holds at most 200 characters")
    }

    @Test func theScreenCyclesTheFocusThroughThePanesItIsGiven() {
        var screen = ScreenState(width: 50, height: 20, now: fixtureStart, themes: [.default], colorDepth: .colors256)
        _ = screen.reduce(.laidOut(Viewport(logRows: 5, errorRows: 3, detailRows: 16, panes: [.errors, .logs])))
        _ = screen.reduce(.focusCycled(forward: true))
        #expect(screen.focus == .logs)
        _ = screen.reduce(.focusCycled(forward: true))
        #expect(screen.focus == .errors, "Metrics and Status have no room")
        _ = screen.reduce(.focused(.sources))
        _ = screen.reduce(.sourcesGone)
        #expect(screen.focus == .errors)
        // A message is stamped when it is new; said again, it keeps its time unless restamped.
        _ = screen.reduce(.said("hello"))
        _ = screen.reduce(.ticked(fixtureStart.addingTimeInterval(3)))
        _ = screen.reduce(.said("hello"))
        #expect(screen.statusMessageSetAt == fixtureStart)
        _ = screen.reduce(.said("hello", restamped: true))
        #expect(screen.statusMessageSetAt == fixtureStart.addingTimeInterval(3))
        let cleared = screen.reduce(.ticked(fixtureStart.addingTimeInterval(9)))
        #expect(cleared && screen.statusMessage == nil)
    }

    @Test func errorsMoveTheirSelectionWithThePageTheyAreGiven() {
        var errors = ErrorsState()
        for index in 0..<10 {
            _ = errors.reduce(
                .alertReceived(
                    AlertRecord(
                        fingerprint: "a\(index)", title: "alert \(index)", severity: .error, category: .transient,
                        firstSeen: fixtureStart, lastSeen: fixtureStart, source: "x")))
        }
        let all = FilterState()
        let rows = errors.rowFingerprints(all, at: fixtureStart)
        _ = errors.reduce(.selectionMoved(.pageDown, page: 4, filter: all, now: fixtureStart))
        #expect(errors.selectedFingerprint == rows[4] && errors.scroll == 1)
        _ = errors.reduce(.selectionMoved(.top, page: 4, filter: all, now: fixtureStart))
        #expect(errors.selectedFingerprint == rows[9] && errors.scroll == 6, "g: the oldest")
        _ = errors.reduce(.selectionMoved(.bottom, page: 4, filter: all, now: fixtureStart))
        #expect(errors.selectedFingerprint == nil && errors.scroll == 0, "G: the newest, followed")
        _ = errors.reduce(.viewCycled)
        #expect(errors.view == .issues)
    }

    @Test func patternsMoveTheirSelectionThroughTheTemplates() {
        var patterns = PatternsState()
        let events = (0..<6).map { index in
            DashboardEvent(
                sequence: UInt64(index + 1), timestamp: fixtureStart, kind: .log, level: .info, source: "s",
                typeName: "", message: ["cache warmed", "disk full", "user signed in"][index % 3] + " \(index)")
        }
        _ = patterns.reduce(.received(events, firstLineNumber: 1 << 63, keptFrom: 100, now: fixtureStart))
        let rows = patterns.visible(FilterState())
        _ = patterns.reduce(.selectionMoved(.bottom, page: 2, filter: FilterState()))
        #expect(patterns.selectedID == rows.last?.id && patterns.scroll == rows.count - 2)
        _ = patterns.reduce(.selectionMoved(.top, page: 2, filter: FilterState()))
        #expect(patterns.selectedID == rows.first?.id && patterns.scroll == 0)
    }

    @Test func detailViewsOpenCloseAndSelectOnTheirOwn() {
        var detail = DetailState()
        _ = detail.reduce(.opened(.issue("a")))
        _ = detail.reduce(.occurrenceMoved(by: 1, count: 3))
        _ = detail.reduce(.occurrenceMoved(by: 5, count: 3))
        #expect(detail.occurrence == 2)
        let moved = detail.reduce(.occurrenceMoved(by: 1, count: 0))
        #expect(!moved, "no occurrence to move to")
        _ = detail.reduce(.opened(.event(7)))
        #expect(detail.stack == [.issue("a"), .event(7)] && detail.occurrence == 0)
        _ = detail.reduce(.libraryFramesToggled)
        _ = detail.reduce(.frameMoved(by: 1, count: 4))
        #expect(detail.showsLibraryFrames && detail.frame == 1)
        _ = detail.reduce(.closed)
        #expect(detail.target == .issue("a") && detail.frame == 0 && !detail.showsLibraryFrames)
    }

    /// Only drawing knows how many lines a detail view has, so its scroll keeps the keys and replays them: for any
    /// keys, the line shown first is where clamping each key to the content as it came would have left it.
    @Test func aDetailScrollReplaysToWhereClampingEachKeyWouldLeaveIt() {
        var g = SeededGenerator(seed: 33)
        let moves: [ScrollMove] = [.up, .down, .pageUp, .pageDown, .top, .bottom]
        for _ in 0..<2_000 {
            let lines = Int.random(in: 0...120, using: &g)
            let rows = Int.random(in: 1...40, using: &g)
            let last = max(0, lines - rows)
            var scroll = DetailScroll()
            var clamped = 0
            for _ in 0..<Int.random(in: 0...40, using: &g) {
                let move = moves.randomElement(using: &g)!
                scroll.apply(move, page: rows)
                switch move {
                case .up: clamped -= 1
                case .down: clamped += 1
                case .pageUp: clamped -= rows
                case .pageDown: clamped += rows
                case .top: clamped = 0
                case .bottom: clamped = last
                }
                clamped = min(max(0, clamped), last)
                #expect(scroll.offset(lines: lines, rows: rows) == clamped, "\(scroll) over \(lines) in \(rows)")
            }
        }
    }

    @Test func kAfterGAndPageUpPastTheEndMoveAtOnce() {
        var scroll = DetailScroll()
        scroll.apply(.bottom, page: 20)
        scroll.apply(.down, page: 20)
        scroll.apply(.up, page: 20)
        #expect(scroll.offset(lines: 100, rows: 20) == 79)
        scroll.apply(.top, page: 20)
        for _ in 0..<9 { scroll.apply(.pageDown, page: 20) }
        scroll.apply(.pageUp, page: 20)
        #expect(scroll.offset(lines: 100, rows: 20) == 60)
        #expect(scroll.moves == [180, -20], "moves one way are summed")
    }
}
