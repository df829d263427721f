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
        let loop = DashboardLoop(backend: backend, state: state, drain: drain, perform: perform, now: { Self.start })
        // Ticks follow the real clock; push them out of reach so frame counts depend on input only.
        loop.tickInterval = .seconds(3_600)
        return loop
    }

    @Test func drawsTheFirstFrameAndQuitsOnQ() {
        let backend = InMemoryBackend(width: 100, height: 30, script: [[.key(.character("q"))]])
        let final = makeLoop(backend).run()
        #expect(final.quitRequested)
        #expect(backend.frames == 1)
        #expect(backend.text.contains("Errors"))
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
        #expect(final.width == 60 && final.height == 20)
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
        #expect(backend.text.contains("Errors"))
    }

    @Test func ctrlLRepaintsAndTriggersReachTheApp() {
        var performed: [DashboardEffect] = []
        let backend = InMemoryBackend(
            width: 100, height: 30,
            script: [[.key(.ctrl("l"))], [.key(.character("s")), .key(.character("x"))], [.key(.character("q"))]])
        let loop = makeLoop(backend, perform: { performed.append($0) })
        loop.run()
        #expect(backend.invalidations == 1)
        #expect(performed == [.trigger(.serverErrorBurst), .trigger(.sessionExpired)])
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
