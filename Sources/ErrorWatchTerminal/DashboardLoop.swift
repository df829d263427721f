import ErrorStreaming
import ErrorWatchUI
import Foundation

/// The dashboard's event loop on the terminal thread: input and posted actions in, reducer, render, diff,
/// changed cells out.
///
/// It blocks in ``TerminalBackend/waitForInput(timeout:)`` (no busy loop), wakes for keys, posted actions,
/// resizes and signals, redraws only when the state's generation changed, and at most once per
/// ``frameInterval`` (30 frames a second), and ticks once a second so ages and uptime move. While the state has
/// work spread over frames (``DashboardState/hasWorkInProgress``) it sends `.frameStarted` once per frame.
///
/// Frames and ticks are timed on an injected clock (`ContinuousClock` live, a manual clock in tests), and every
/// action goes through one ``DashboardStore``, the same the headless renderer uses.
///
/// ```swift
/// let loop = DashboardLoop(backend: backend, store: store, drain: inbox.drain, perform: runtime.perform)
/// let final = loop.run()   // returns on `q` or a termination signal
/// ```
public final class DashboardLoop<Backend: TerminalBackend> {
    /// The terminal it draws to and reads from.
    public let backend: Backend
    /// The store every action goes through.
    public private(set) var store: DashboardStore
    /// The state as of the last reduced action.
    public var state: DashboardState { store.state }
    /// Shortest time between two frames.
    public var frameInterval: Duration = .milliseconds(33)
    /// How often `.tick` is sent.
    public var tickInterval: Duration = .seconds(1)
    /// Frames drawn so far.
    public private(set) var framesDrawn = 0
    /// When the first frame was presented.
    public private(set) var firstFrameAt: ErasedClock.Instant?
    /// The most frames presented within any one second of the run.
    public private(set) var peakFramesPerSecond = 0
    private var frameWindow: [ErasedClock.Instant] = []

    private let drain: () -> [DashboardAction]
    private let perform: (DashboardEffect) -> Void
    private let now: () -> Date
    private let clock: ErasedClock
    private var previous = ScreenBuffer(width: 0, height: 0)
    private var renderedGeneration: UInt64?
    private var lastFrame: ErasedClock.Instant?
    private var nextTick: ErasedClock.Instant
    private var running = true
    private var actionsMayBeWaiting = false

    /// - Parameters:
    ///   - drain: takes the actions posted by other threads since the last call.
    ///   - perform: runs effects that concern the app (demo triggers); quit and redraw are handled here.
    ///   - now: the wall-clock time for ticks.
    ///   - clock: times frames and ticks: the continuous clock live, a manual one in tests.
    public init(
        backend: Backend, store: DashboardStore, drain: @escaping () -> [DashboardAction],
        perform: @escaping (DashboardEffect) -> Void, now: @escaping () -> Date = { Date() },
        clock: ErasedClock = ErasedClock(ContinuousClock())
    ) {
        self.backend = backend
        self.store = store
        self.drain = drain
        self.perform = perform
        self.now = now
        self.clock = clock
        nextTick = clock.now
        apply(.colorDepthDetected(backend.colorDepth))
        apply(.resized(width: backend.size.width, height: backend.size.height))
    }

    /// A loop over a store holding `state`.
    public convenience init(
        backend: Backend, state: DashboardState, drain: @escaping () -> [DashboardAction],
        perform: @escaping (DashboardEffect) -> Void, now: @escaping () -> Date = { Date() },
        clock: ErasedClock = ErasedClock(ContinuousClock())
    ) {
        self.init(
            backend: backend, store: DashboardStore(state: state), drain: drain, perform: perform, now: now,
            clock: clock)
    }

    /// Sends an action through the store and performs its effects.
    public func apply(_ action: DashboardAction) {
        store.send(
            action,
            to: .init(quit: { self.running = false }, redrawAll: { self.forceFullRedraw() }, perform: perform))
    }

    private func forceFullRedraw() {
        backend.invalidate()
        previous = ScreenBuffer(width: 0, height: 0)
        renderedGeneration = nil
    }

    /// Runs until `q` or a termination signal; returns the final state.
    @discardableResult
    public func run() -> DashboardState {
        // What was posted before the loop started (an attached app's keys, the first statuses) is in the first
        // frame, so a key pressed the moment it appears already means what the screen says.
        for action in drain() { apply(action) }
        drawIfNeeded(force: true)
        while running {
            let inputs = backend.waitForInput(timeout: timeout())
            var keyPressed = false
            // A burst of resizes is one: only the last size of a wake-up is applied and redrawn in full.
            let lastResize = inputs.lastIndex { if case .resized = $0 { true } else { false } }
            for (index, input) in inputs.enumerated() {
                switch input {
                case .key(let key):
                    apply(.keyPressed(key))
                    keyPressed = true
                case .resized(let width, let height):
                    guard index == lastResize else { continue }
                    apply(.resized(width: width, height: height))
                    forceFullRedraw()
                case .terminationRequested: running = false
                }
            }
            // Posted actions are taken once per frame, not on every wake-up: under a flood the inbox folds what
            // arrives in between, so the work per frame stays bounded and keys are still answered at once.
            if frameIsDue() {
                for action in drain() { apply(action) }
                // Work spread over frames (a refilter of a long history) takes one bounded slice per frame.
                if state.hasWorkInProgress { apply(.frameStarted) }
                actionsMayBeWaiting = false
            } else {
                actionsMayBeWaiting = true
            }
            let current = clock.now
            if current >= nextTick {
                apply(.tick(now()))
                while nextTick <= current { nextTick = nextTick.advanced(by: tickInterval) }
            }
            // A key's answer is drawn at once, outside the frame budget: keys come at human speed.
            if running { drawIfNeeded(force: false, immediately: keyPressed) }
        }
        return state
    }

    /// How long to wait: until the next frame may be drawn when something changed or actions may be waiting,
    /// else until the next tick.
    private func timeout() -> Duration {
        let current = clock.now
        var wait = current.duration(to: nextTick)
        if renderedGeneration != state.generation || actionsMayBeWaiting || state.hasWorkInProgress, let lastFrame {
            wait = min(wait, current.duration(to: lastFrame.advanced(by: frameInterval)))
        }
        return max(.zero, wait)
    }

    private func frameIsDue() -> Bool {
        guard let lastFrame else { return true }
        return lastFrame.duration(to: clock.now) >= frameInterval
    }

    /// Draws when the state changed and the frame budget allows (`immediately` skips the budget); `force` draws
    /// even an unchanged state.
    private func drawIfNeeded(force: Bool, immediately: Bool = false) {
        guard force || renderedGeneration != state.generation else { return }
        let current = clock.now
        if !force, !immediately, let lastFrame, lastFrame.duration(to: current) < frameInterval { return }
        let frame = Dashboard.render(state)
        let changes = frame.changes(since: previous)
        if !changes.isEmpty || force {
            backend.write(changes)
            backend.present()
            framesDrawn += 1
            if firstFrameAt == nil { firstFrameAt = current }
            frameWindow.append(current)
            frameWindow.removeAll { $0.duration(to: current) >= .seconds(1) }
            peakFramesPerSecond = max(peakFramesPerSecond, frameWindow.count)
        }
        previous = frame
        renderedGeneration = state.generation
        lastFrame = current
    }
}
