import Dispatch
import ErrorStreaming
import ErrorWatchRuntime
import ErrorWatchTerminal
import ErrorWatchTerminalTesting
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A whole session — runtime, a real listener, the store and the loop — against the in-memory terminal.
///
/// `run` blocks its thread as the terminal's thread does; serialized, so these tests never hold more than one of
/// the cooperative pool's threads while the feeds need another.
@Suite(.serialized)
struct DashboardSessionTests {
    static let line =
        #"{"v":1,"kind":"error","time":"2026-11-22T09:00:00Z","service.name":"shop","exception.type":"Shop.PaymentError","exception.message":"gateway answered 503","error.code":"N-503","error.category":"transient"}"#
        + "\n"

    /// A socket path of our own in the temporary folder.
    static func socketPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ew-session-\(UUID().uuidString.prefix(8)).sock")
            .path
    }

    /// Connects to a Unix socket, writes `text` and closes: a producer in a few lines.
    static func send(_ text: String, to path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(connected == 0)
        let written = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, text.utf8.count) }
        try #require(written == text.utf8.count)
    }

    @Test func aRemoteErrorReachesTheScreenAndStopReleasesEverything() async throws {
        let path = Self.socketPath()
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let external = ExternalSources(
            listen: [.unix(path: path)], tail: [], ingest: runtime.ingest, clock: runtime.clock)
        let session = try DashboardSession(runtime: runtime, sources: [external])
        try await session.start()
        #expect(FileManager.default.fileExists(atPath: path), "listening once started")
        try Self.send(Self.line, to: path)

        // Like a real terminal, the backend blocks until the feeds' posts wake it (an explicit signal) or the time
        // the loop asked for passes; it quits once the alert is drawn.
        let posted = DispatchSemaphore(value: 0)
        var idle = 0
        let backend = InMemoryBackend(
            width: 120, height: 40, waker: TerminalWaker { posted.signal() },
            onIdle: { backend in
                idle += 1
                if backend.text.contains("PaymentError: gateway answered 503") || idle > 400 {
                    return [.key(.character("q"))]
                }
                let asked = backend.waits.last.flatMap { $0 } ?? .seconds(5)
                let (seconds, attoseconds) = min(asked, .seconds(5)).components
                _ = posted.wait(
                    timeout: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
                return []
            })
        let final = session.run(backend: backend, state: DashboardState(width: 120, height: 40, now: Date()))
        #expect(final.quitRequested)
        #expect(backend.text.contains("PaymentError: gateway answered 503"))
        #expect(backend.text.contains("Sources"))
        #expect(final.feeds.sources.contains { $0.name == "shop" })

        let statistics = await session.stop()
        #expect(statistics.errorsAdded == 1)
        #expect(statistics.errorsCounted == 1)
        #expect(statistics.dropped == 0)
        // The error may be ingested before the loop's first frame (a loaded machine runs the listener first): then
        // that frame already shows it and is the only one.
        #expect(statistics.framesDrawn >= 1)
        #expect(statistics.firstFrameAt != nil)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket is removed on stop")
        #expect(await session.stop().errorsAdded == 1, "stopping twice is harmless")
    }

    @Test func aSourceThatCannotStartStopsWhatStartedAndSaysWhy() async throws {
        let path = Self.socketPath()
        let first = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let holder = try DashboardSession(
            runtime: first,
            sources: [ExternalSources(listen: [.unix(path: path)], tail: [], ingest: first.ingest, clock: first.clock)])
        try await holder.start()

        let second = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let session = try DashboardSession(
            runtime: second,
            sources: [
                ExternalSources(listen: [.unix(path: path)], tail: [], ingest: second.ingest, clock: second.clock)
            ])
        var failure: SessionError?
        do { try await session.start() } catch { failure = error }
        guard case .sourceFailed(let reason) = failure else {
            Issue.record("expected sourceFailed, got \(String(describing: failure))")
            return
        }
        #expect(reason.contains(path))
        #expect(second.stream.statistics.subscribers == 0, "the feeds were stopped again")
        #expect(FileManager.default.fileExists(atPath: path), "the other session's socket is untouched")
        _ = await holder.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anAttachedAppGetsItsCommandsAndPublishesStatuses() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let received = Received()
        runtime.attach(
            AppAttachment(
                name: "worker", title: "Worker",
                bindings: [.init(key: .character("d"), command: "drain", summary: "Drain the queue", hint: "drain")],
                start: {
                    runtime.publish(status: StatusEntry(name: "queue", state: "idle", health: .idle, changedAt: Date()))
                },
                stop: {}, perform: { received.append($0) }))
        let session = try DashboardSession(runtime: runtime)
        try await session.start()
        var pressed = false
        var idle = 0
        // The loop takes posted actions once per frame (33 ms); the bound only keeps a broken run from going on.
        let backend = InMemoryBackend(width: 240, height: 40) { backend in
            idle += 1
            if !pressed, backend.frames > 0, backend.screen.text(ofRow: 39).contains("d drain") {
                pressed = true
                return [.key(.character("d"))]
            }
            return pressed || idle > 200_000 ? [.key(.character("q"))] : []
        }
        let final = session.run(backend: backend, state: DashboardState(width: 240, height: 40, now: Date()))
        _ = await session.stop()
        #expect(received.values == ["drain"])
        #expect(final.feeds.statuses.map(\.name) == ["queue"])
        #expect(final.feeds.apps.map(\.name) == ["worker"])
    }
}

extension DashboardSessionTests {
    /// A regression test: the exit totals were read before the counting feed had caught up with a burst.
    @Test func stopReportsExactTotalsAfterABurst() async throws {
        let runtime = DashboardRuntime(clock: ErasedClock(ContinuousClock()), startDate: Date())
        let session = try DashboardSession(runtime: runtime)
        try await session.start()
        for index in 0..<50_000 {
            runtime.stream.add(RemoteError(typeName: "Burst", message: "\(index)"))
        }
        let statistics = await session.stop()
        #expect(statistics.errorsAdded == 50_000)
        #expect(statistics.errorsCounted == 50_000)
    }
}

/// Commands an app received, from any thread.
final class Received: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}
