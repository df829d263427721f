import CoreMetrics
import ErrorStreaming
import Foundation
import Logging
import Synchronization

/// The simulated app the dashboard watches: a login screen, a logged-in session and a background sync, all
/// talking to a ``AuthService`` whose faults the user injects by keypress (``DemoApp/keys``).
///
/// It knows nothing of the dashboard: it reports errors to an ``ErrorStream``, logs through swift-log, records
/// metrics through swift-metrics and publishes ``DemoStatus`` changes, like any app. `errorwatch` attaches it to
/// the dashboard with a small adapter, or forwards all of it over the wire (`errorwatch demo --connect`).
///
/// Every error goes through one ``ErrorStream``. The app uses the library the way an app would:
/// - the login form's taps flow through `performEach`, so a failed login shows and the next tap still works
///   on the same subscription;
/// - a 401 travels the top-down ``ErrorHandler`` tree, where the "logged-in" node sends the user back to login;
/// - offline and transient failures are retried with exponential backoff, so they heal when the network returns;
/// - background sync errors are logged (with `origin: background`) and counted, never alerted;
/// - `reportBug` marks the branch that cannot happen.
///
/// All timing comes from the injected clock, all randomness from the seed; tasks run on an optional executor, so
/// the headless renderer can run the whole app deterministically.
public final class DemoApp: Sendable {
    /// The stream every error of the app goes to.
    public let stream: ErrorStream
    /// The switches triggers flip.
    public let faults = FaultInjector()
    /// Seed and timings.
    public let configuration: DemoConfiguration

    let clock: ErasedClock
    let random: SharedRandom
    let auth: AuthService
    let metrics: any MetricsFactory
    let executor: (any TaskExecutor)?
    let now: @Sendable () -> Date
    let statusSink: @Sendable (DemoStatus) -> Void
    let loginLog: Logger
    let sessionLog: Logger
    let syncLog: Logger
    let appLog: Logger

    /// The top of the handler tree: forwards every error to the stream.
    let rootHandler: ErrorHandler
    /// The app-wide node: retries nothing, but swallows expected errors quietly.
    let appHandler: ErrorHandler
    /// The node of the logged-in part of the app: an expired session sends the user back to login.
    let loggedInHandler: ErrorHandler

    let loginTaps: AsyncStream<Credentials>.Continuation
    let loginTapStream: AsyncStream<Credentials>
    let refreshRequests: AsyncStream<Void>.Continuation
    let refreshStream: AsyncStream<Void>

    private struct State {
        var tasks: [Task<Void, Never>] = []
        var stormRunning = false
    }
    private let state = Mutex(State())
    /// The logged-in session; the handler tree's "logged in" node captures it weakly.
    let session: SessionStore

    /// - Parameters:
    ///   - stream: where every error goes.
    ///   - clock: every wait (latency, backoff, intervals) sleeps on it.
    ///   - metrics: the swift-metrics backend for the flows' counters and the `auth.login.duration` timer.
    ///   - now: wall-clock time for status changes, derived from `clock` in headless runs.
    ///   - executor: where the app's tasks run; `nil` for the global concurrent executor.
    ///   - logHandler: makes the swift-log handler of each of the app's loggers, by label. A record logged with an
    ///     error (`logger.warning("…", error: e)`) is expected to reach `stream` through it.
    ///   - statusSink: receives every change of the app's statuses (`login`, `session`, `sync`).
    public init(
        stream: ErrorStream, clock: ErasedClock, configuration: DemoConfiguration = DemoConfiguration(),
        metrics: any MetricsFactory, now: @escaping @Sendable () -> Date, executor: (any TaskExecutor)? = nil,
        logHandler: @escaping @Sendable (String) -> any LogHandler,
        statusSink: @escaping @Sendable (DemoStatus) -> Void
    ) {
        self.stream = stream
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.now = now
        self.executor = executor
        self.statusSink = statusSink
        random = SharedRandom(seed: configuration.seed)
        auth = AuthService(clock: clock, faults: faults, random: random)
        (loginTapStream, loginTaps) = AsyncStream.makeStream(of: Credentials.self, bufferingPolicy: .bufferingNewest(8))
        (refreshStream, refreshRequests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

        func logger(_ label: String) -> Logger {
            var logger = Logger(label: label, factory: logHandler)
            logger.logLevel = .info
            return logger
        }
        loginLog = logger("auth.login")
        sessionLog = logger("auth.session")
        syncLog = logger("sync")
        appLog = logger("app")

        rootHandler = ErrorHandler(forwardingTo: stream, name: "root")
        appHandler = rootHandler.catch(name: "app") { error in
            // Cancellation is how flows stop; it is expected and needs no one's attention.
            if Classification(of: error).category == .expected { return }
            throw error
        }
        let session = SessionStore(
            autoLogin: configuration.autoLogin, loginTaps: loginTaps,
            publish: { statusSink($0) }, now: now)
        self.session = session
        // The node lives as long as the app, and the app owns the store: capture it weakly, or the two would
        // keep each other alive.
        loggedInHandler = appHandler.catch(SessionError.expired, name: "logged in") { [weak session] in
            session?.expire()
        }
    }

    /// Starts the flows. Call once.
    public func start() {
        publish(.login(state: "logged out", health: .idle, outcome: "press l to log in"))
        publish(.session(state: "no session", health: .idle, outcome: "—"))
        publish(.sync(state: "waiting", health: .idle, outcome: "—"))
        spawn { await self.runLoginFlow() }
        spawn { await self.runSessionFlow() }
        spawn { await self.runSessionTimer() }
        spawn { await self.runSyncFlow() }
        appLog.info("demo app started (seed \(configuration.seed))")
    }

    /// Stops every flow; the stream is left open.
    public func stop() {
        let tasks = state.withLock { s in
            defer { s.tasks.removeAll() }
            return s.tasks
        }
        for task in tasks { task.cancel() }
        loginTaps.finish()
        refreshRequests.finish()
    }

    /// Whether a user is logged in.
    public var isLoggedIn: Bool { session.current != nil }

    /// Marks the storm as running; `false` when one already is.
    func startStorm() -> Bool {
        state.withLock { s in
            guard !s.stormRunning else { return false }
            s.stormRunning = true
            return true
        }
    }

    func endStorm() { state.withLock { $0.stormRunning = false } }

    /// Runs `operation` as a new task on the app's executor.
    @discardableResult
    func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let task =
            if let executor {
                Task(executorPreference: executor) { await operation() }
            } else {
                Task { await operation() }
            }
        // Every task the app starts is kept (one per flow, one per burst or storm pressed), so `stop()` cancels
        // them all.
        state.withLock { $0.tasks.append(task) }
        return task
    }
}
