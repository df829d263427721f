import ErrorStreaming
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Something outside the process that feeds the dashboard: listeners and tailed files (``ExternalSources``), or a
/// recording being played (``ReplaySource``).
public protocol DashboardSource: Sendable {
    /// Starts delivering into the runtime's ingest. Throws a clear error when it cannot start (a live socket, a
    /// port in use); nothing is left running then.
    func start(into runtime: DashboardRuntime) async throws
    /// Stops delivering and releases what it holds (connections, socket files, tasks).
    func shutdown() async
}

/// One run of the dashboard, from start to stop, whatever its sources and terminal: `errorwatch` (live),
/// `errorwatch replay`, and tests against the in-memory backend all go through it.
///
/// ```swift
/// let session = DashboardSession(runtime: runtime, sources: [external], recordingPath: nil)
/// try session.start()                                   // feeds, apps, recorder, then sources
/// let final = session.run(backend: backend, state: state) // until `q` or a termination signal
/// let statistics = session.stop()                       // sources, apps, stream, recorder, in that order
/// ```
///
/// The caller owns the terminal: it creates the backend after ``start()`` (so "address in use" is printed on a
/// plain terminal) and restores it right after ``run(backend:state:clock:)``, before ``stop()`` waits for anything.
public final class DashboardSession {
    /// What a session did, for `--stats` and tests.
    public struct Statistics: Sendable, Equatable {
        /// Errors added to the stream.
        public var errorsAdded: UInt64
        /// Errors the Metrics pane counted; equals ``errorsAdded`` unless counting fell behind.
        public var errorsCounted: Int
        /// Events a slow consumer dropped.
        public var dropped: UInt64
        /// Events written to the recording, if one was made.
        public var recorded: UInt64?
        /// The recording's first write error, if any.
        public var recordingProblem: String?
        /// Frames drawn.
        public var framesDrawn: Int
        /// The most frames drawn within one second.
        public var peakFramesPerSecond: Int
        /// When the first frame was presented, on the session's clock; `nil` when none was.
        public var firstFrameAt: ErasedClock.Instant?
    }

    /// The runtime behind the screen.
    public let runtime: DashboardRuntime
    /// What feeds it from outside.
    public let sources: [any DashboardSource]
    private let recorder: SessionRecorder?
    private var started: [any DashboardSource] = []
    private var frames = (drawn: 0, peak: 0)
    private var firstFrameAt: ErasedClock.Instant?
    private var isRunning = false

    /// A session over `runtime` fed by `sources`, recording everything shown to `recordingPath` when given.
    ///
    /// - Throws: ``SessionError/cannotRecord(path:reason:)`` when the recording cannot be opened.
    public init(
        runtime: DashboardRuntime, sources: [any DashboardSource] = [], recordingPath: String? = nil
    ) throws(SessionError) {
        self.runtime = runtime
        self.sources = sources
        if let recordingPath {
            do {
                recorder = try SessionRecorder(path: recordingPath, source: SourceInfo(serviceName: "errorwatch"))
            } catch {
                throw .cannotRecord(path: recordingPath, reason: "\(error)")
            }
        } else {
            recorder = nil
        }
    }

    /// Starts the recorder, the feeds and the attached apps, then the sources. On failure everything started is
    /// stopped again and the error says what could not start.
    public func start() throws(SessionError) {
        if let recorder {
            recorder.start(stream: runtime.stream)
            runtime.observeLogs { recorder.record($0) }
            runtime.ingest.observe { recorder.record($0) }
        }
        // The feeds subscribe first, so nothing a source delivers from its first moment is missed.
        runtime.start()
        isRunning = true
        let runtime = self.runtime
        for source in sources {
            do {
                try blocking { try await source.start(into: runtime) }
                started.append(source)
            } catch {
                _ = stop()
                throw .sourceFailed("\(error)")
            }
        }
    }

    /// Runs the dashboard on `backend` until `q` or a termination signal; returns the final state. Keys go to the
    /// store, attached apps get their commands, and actions posted by the feeds wake the loop.
    @discardableResult
    public func run<Backend: TerminalBackend>(
        backend: Backend, state: DashboardState, clock: ErasedClock = ErasedClock(ContinuousClock())
    ) -> DashboardState {
        let waker = backend.waker
        runtime.inbox.setWaker { waker.wake() }
        let runtime = self.runtime
        let loop = DashboardLoop(
            backend: backend, store: DashboardStore(state: state), drain: runtime.inbox.drain,
            perform: runtime.perform, now: { runtime.now }, clock: clock)
        let final = loop.run()
        runtime.inbox.setWaker {}
        frames = (frames.drawn + loop.framesDrawn, max(frames.peak, loop.peakFramesPerSecond))
        firstFrameAt = firstFrameAt ?? loop.firstFrameAt
        return final
    }

    /// Stops the sources, the apps and the feeds, finishes the stream and closes the recording; returns what the
    /// session did. Safe to call more than once.
    public func stop() -> Statistics {
        let statistics = runtime.stream.statistics
        let counted = runtime.sampleMetrics().totalErrors
        let running = started
        started = []
        blocking {
            for source in running.reversed() { await source.shutdown() }
        }
        if isRunning {
            runtime.stop()
            isRunning = false
        }
        if let recorder { blocking { await recorder.stop() } }
        return Statistics(
            errorsAdded: statistics.added, errorsCounted: counted, dropped: statistics.dropped,
            recorded: recorder?.recordedCount, recordingProblem: recorder?.problem, framesDrawn: frames.drawn,
            peakFramesPerSecond: frames.peak, firstFrameAt: firstFrameAt)
    }
}

/// Why a session could not start.
public enum SessionError: Error, CustomStringConvertible, Equatable {
    /// The recording file could not be opened.
    case cannotRecord(path: String, reason: String)
    /// A source could not start (a live socket at the path, a port in use…).
    case sourceFailed(String)

    public var description: String {
        switch self {
        case .cannotRecord(let path, let reason): "cannot record to \(path): \(reason)"
        case .sourceFailed(let reason): reason
        }
    }
}

extension ExternalSources: DashboardSource {
    public func start(into runtime: DashboardRuntime) async throws { try await start() }
}

/// `errorwatch replay`: a recording played into the runtime at its recorded pace, scaled.
public final class ReplaySource: DashboardSource {
    /// The recording.
    public let player: RecordingPlayer
    private let task = LockedTask()

    /// Plays `player`.
    public init(player: RecordingPlayer) { self.player = player }

    public func start(into runtime: DashboardRuntime) async throws {
        let player = self.player
        task.set(Task { await player.play(into: runtime.ingest, clock: runtime.clock) })
    }

    public func shutdown() async { await task.cancelAndWait() }
}

/// Runs async work to completion from synchronous code (the thread that owns the terminal).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// Runs async work that cannot fail to completion from synchronous code.
func blocking(_ body: @escaping @Sendable () async -> Void) {
    _ = try? blocking { () async throws -> Bool in
        await body()
        return true
    }
}

/// A task started later and cancelled from elsewhere.
final class LockedTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    func set(_ new: Task<Void, Never>) { task.withLock { $0 = new } }
    func cancelAndWait() async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
    }
}
