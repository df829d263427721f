import ErrorStreaming
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

/// One run of the dashboard, from start to stop, whatever its sources and terminal: `errorwatch` (live),
/// `errorwatch replay`, and tests against the in-memory backend all go through it.
///
/// ```swift
/// let session = try DashboardSession(runtime: runtime, sources: [external], recordingPath: nil)
/// try await session.start()                              // recorder, feeds, apps, then sources
/// let final = session.run(backend: backend, state: state) // on the terminal's thread, until `q` or a signal
/// let statistics = await session.stop()                  // sources, apps, stream, recorder, in that order
/// ```
///
/// The caller owns the terminal: it creates the backend after ``start()`` (so "address in use" is printed on a
/// plain terminal) and restores it right after ``run(backend:state:clock:)``, before ``stop()`` waits for anything.
/// ``run(backend:state:clock:)`` blocks its thread: call it from the thread that owns the terminal (the main
/// thread), not from a task on the cooperative pool that the feeds need.
///
/// Start, run and stop are meant to be called in that order; the session's bookkeeping is under a lock, so they may
/// come from different threads or tasks.
public final class DashboardSession: Sendable {
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
        /// Events the `Sources` pane counted over all its rows (producers, files, OTLP senders), at stop.
        public var sourceEvents: UInt64 = 0
        /// What the trace store did with the spans the receivers accepted, at stop: every span accepted is held,
        /// evicted with its trace, or dropped over its trace's cap.
        public var traces = TraceStore.Statistics()
    }

    /// The runtime behind the screen.
    public let runtime: DashboardRuntime
    /// What feeds it from outside.
    public let sources: [any DashboardSource]
    private let recorder: SessionRecorder?
    private struct Bookkeeping {
        var started: [any DashboardSource] = []
        var framesDrawn = 0
        var peakFramesPerSecond = 0
        var firstFrameAt: ErasedClock.Instant?
        var isRunning = false
    }
    private let bookkeeping = Mutex(Bookkeeping())

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
    public func start() async throws(SessionError) {
        if let recorder {
            let runtime = self.runtime
            recorder.start(stream: runtime.stream, now: { runtime.now })
            runtime.observeLogs { recorder.record($0) }
            runtime.observeStatuses { recorder.record($0) }
            runtime.ingest.observe { recorder.record($0) }
        }
        // The feeds subscribe first, so nothing a source delivers from its first moment is missed.
        runtime.start()
        bookkeeping.withLock { $0.isRunning = true }
        for source in sources {
            do {
                try await source.start(into: runtime)
                bookkeeping.withLock { $0.started.append(source) }
            } catch {
                _ = await stop()
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
        runtime.inbox.setFramePacing(true)
        let runtime = self.runtime
        let loop = DashboardLoop(
            backend: backend, store: DashboardStore(state: state), drain: runtime.inbox.drain,
            perform: runtime.perform, now: { runtime.now }, clock: clock)
        let final = loop.run()
        runtime.inbox.setFramePacing(false)
        runtime.inbox.setWaker {}
        bookkeeping.withLock {
            $0.framesDrawn += loop.framesDrawn
            $0.peakFramesPerSecond = max($0.peakFramesPerSecond, loop.peakFramesPerSecond)
            $0.firstFrameAt = $0.firstFrameAt ?? loop.firstFrameAt
        }
        return final
    }

    /// Stops the sources, the apps and the feeds, finishes the stream and closes the recording; returns what the
    /// session did. Safe to call more than once.
    public func stop() async -> Statistics {
        let (running, wasRunning) = bookkeeping.withLock { b in
            defer { (b.started, b.isRunning) = ([], false) }
            return (b.started, b.isRunning)
        }
        for source in running.reversed() { await source.shutdown() }
        if wasRunning { runtime.stop() }
        // Every error was counted as it was added: the exit totals are exact now.
        let statistics = runtime.stream.statistics
        let counted = runtime.sampleMetrics().totalErrors
        if let recorder { await recorder.stop() }
        let frames = bookkeeping.withLock { $0 }
        return Statistics(
            errorsAdded: statistics.added, errorsCounted: counted, dropped: statistics.dropped,
            recorded: recorder?.recordedCount, recordingProblem: recorder?.problem, framesDrawn: frames.framesDrawn,
            peakFramesPerSecond: frames.peakFramesPerSecond, firstFrameAt: frames.firstFrameAt,
            sourceEvents: runtime.ingest.statuses.reduce(0) { $0 &+ $1.events },
            traces: runtime.ingest.traceStatistics)
    }
}

extension ExternalSources: DashboardSource {
    public func start(into runtime: DashboardRuntime) async throws { try await start() }
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
