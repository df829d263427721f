import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchTerminalTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchTerminal

struct DashboardLoopTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    func makeLoop(
        _ backend: InMemoryBackend, drain: @escaping () -> [DashboardAction] = { [] },
        perform: @escaping (DashboardEffect) -> Void = { _ in }
    ) -> DashboardLoop<InMemoryBackend> {
        let state = DashboardState(width: backend.size.width, height: backend.size.height, now: Self.start)
        // A manual clock that nobody advances: frame counts depend on input only.
        return DashboardLoop(
            backend: backend, state: state, drain: drain, perform: perform, now: { Self.start },
            clock: ErasedClock(ManualClock()))
    }

    @Test func ticksFollowTheInjectedClock() {
        let clock = ManualClock()
        var waits = 0
        // Each wait lets the time the loop asked for pass; after five waits the test ends the run.
        let backend = InMemoryBackend(width: 100, height: 30) { backend in
            waits += 1
            clock.advance(by: backend.waits.last.flatMap { $0 } ?? .seconds(1))
            return waits > 8 ? [.terminationRequested(signal: 15)] : []
        }
        let state = DashboardState(width: 100, height: 30, now: Self.start)
        let loop = DashboardLoop(
            backend: backend, state: state, drain: { [] }, perform: { _ in },
            now: { Self.start.addingTimeInterval(Double(clock.now.offset.components.seconds)) },
            clock: ErasedClock(clock))
        let final = loop.run()
        // Idle, it sleeps until the next tick or frame: never an endless wait, never a spin after the start.
        #expect(backend.waits.dropFirst().allSatisfy { $0.map { $0 > .zero && $0 <= .seconds(1) } ?? false })
        #expect(final.screen.now.timeIntervalSince(Self.start) >= 5)
        #expect(loop.framesDrawn >= 5, "the uptime changed every second")
        #expect(backend.text.contains("up 00:00:0"))
    }

    @Test func drawsTheFirstFrameAndQuitsOnQ() {
        let backend = InMemoryBackend(width: 100, height: 30, script: [[.key(.character("q"))]])
        let final = makeLoop(backend).run()
        #expect(final.quitRequested)
        #expect(backend.frames == 1)
        #expect(backend.text.contains("Alerts"))
        #expect(backend.text.contains("Logs"))
    }

    @Test func idleWakeUpsDrawNothing() {
        let backend = InMemoryBackend(width: 100, height: 30, script: [[], [], [], [], [.key(.character("q"))]])
        let loop = makeLoop(backend)
        loop.run()
        #expect(loop.framesDrawn == 1)
        #expect(backend.frames == 1)
    }

    @Test func postedActionsAreDrawnAndOnlyChangedCellsWritten() {
        var batches: [[DashboardAction]] = [
            [],
            [
                .alertReceived(
                    AlertRecord(
                        fingerprint: "AuthError#A-101", title: "Wrong email or password", code: "A-101",
                        severity: .warning, category: .userActionable, count: 3, firstSeen: Self.start,
                        lastSeen: Self.start, source: "auth.login", typeName: "AuthError"))
            ],
        ]
        let backend = InMemoryBackend(width: 100, height: 30, script: [[], [], [.key(.character("q"))]])
        let loop = makeLoop(backend, drain: { batches.isEmpty ? [] : batches.removeFirst() })
        loop.frameInterval = .zero
        loop.run()
        #expect(backend.text.contains("Wrong email or password"))
        #expect(backend.frames == 2)
        #expect(backend.writtenCells < 2 * 100 * 30)
    }

    @Test func resizeRepaintsEverythingAtTheNewSize() {
        let backend = InMemoryBackend(
            width: 100, height: 30, script: [[.resized(width: 60, height: 20)], [.key(.character("q"))]])
        let loop = makeLoop(backend)
        loop.frameInterval = .zero
        let final = loop.run()
        #expect(final.screen.width == 60 && final.screen.height == 20)
        #expect(backend.screen.width == 60)
        #expect(backend.invalidations == 1)
        #expect(backend.text.split(separator: "\n").count == 20)
    }

    @Test func tinyTerminalKeepsRunning() {
        let backend = InMemoryBackend(
            width: 100, height: 30,
            script: [[.resized(width: 1, height: 1)], [.resized(width: 100, height: 30)], [.key(.character("q"))]])
        let loop = makeLoop(backend)
        loop.frameInterval = .zero
        loop.run()
        #expect(backend.text.contains("Alerts"))
    }

    @Test func ctrlLRepaintsAndAppKeysReachTheApp() {
        var performed: [DashboardEffect] = []
        let backend = InMemoryBackend(
            width: 100, height: 30,
            script: [[.key(.ctrl("l"))], [.key(.character("s")), .key(.character("x"))], [.key(.character("q"))]])
        let app = AttachedApp(
            name: "app", title: "App",
            bindings: [
                KeyBinding(keys: [.character("s")], command: .app(AppCommand(app: "app", id: "burst")), summary: "S"),
                KeyBinding(keys: [.character("x")], command: .app(AppCommand(app: "app", id: "expire")), summary: "X"),
            ])
        var attached = [[DashboardAction.appAttached(app)]]
        let loop = makeLoop(
            backend, drain: { attached.isEmpty ? [] : attached.removeFirst() }, perform: { performed.append($0) })
        loop.frameInterval = .zero
        loop.run()
        #expect(backend.invalidations == 1)
        #expect(
            performed == [
                .appCommand(AppCommand(app: "app", id: "burst")), .appCommand(AppCommand(app: "app", id: "expire")),
            ])
    }

    @Test func terminationSignalEndsTheLoop() {
        let backend = InMemoryBackend(width: 80, height: 24, script: [[.terminationRequested(signal: 15)]])
        let final = makeLoop(backend).run()
        #expect(!final.quitRequested)
        #expect(backend.frames == 1)
    }

    @Test func unknownKeysAreIgnored() {
        let backend = InMemoryBackend(
            width: 80, height: 24, script: [[.key(.function(11)), .key(.character("§"))], [.key(.character("q"))]])
        let loop = makeLoop(backend)
        loop.run()
        #expect(loop.framesDrawn == 1)
    }
}

extension DashboardLoopTests {
    /// A regression test: an app's key pressed as soon as the first frame showed was lost, because the app's
    /// attachment was still waiting in the inbox until the next frame was due.
    @Test func actionsPostedBeforeTheLoopStartsAreInTheFirstFrame() {
        var performed: [DashboardEffect] = []
        let app = AttachedApp(
            name: "app", title: "App",
            bindings: [
                KeyBinding(
                    keys: [.character("S")], command: .app(AppCommand(app: "app", id: "storm")), summary: "Storm",
                    hint: "storm")
            ])
        var posted = [[DashboardAction.appAttached(app)]]
        let backend = InMemoryBackend(
            width: 200, height: 30, script: [[.key(.character("S"))], [.key(.character("q"))]])
        let loop = makeLoop(
            backend, drain: { posted.isEmpty ? [] : posted.removeFirst() }, perform: { performed.append($0) })
        loop.run()
        #expect(performed == [.appCommand(AppCommand(app: "app", id: "storm"))])
    }
}
