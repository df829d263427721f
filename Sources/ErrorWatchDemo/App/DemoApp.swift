import ErrorStreaming
import ErrorWatchUI
import Foundation
import Logging
import Metrics
import Synchronization

/// The simulated app the dashboard watches: a login screen, a logged-in session and a background sync, all
/// talking to a ``AuthService`` whose faults the user injects by keypress.
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
    public let stream: ErrorStream
    public let faults = FaultInjector()
    public let configuration: DemoConfiguration

    let clock: DemoClock
    let random: SharedRandom
    let auth: AuthService
    let metrics: DashboardMetrics
    let executor: (any TaskExecutor)?
    let now: @Sendable () -> Date
    let flowSink: @Sendable (FlowStatus) -> Void
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
    ///   - metrics: the swift-metrics backend for counters and the login-latency timer.
    ///   - now: wall-clock time for log records and flow changes, derived from `clock` in headless runs.
    ///   - executor: where the app's tasks run; `nil` for the global concurrent executor.
    ///   - logSink: receives every log record (the `Logs` pane).
    ///   - flowSink: receives every flow state change (the `Flows` pane).
    public init(
        stream: ErrorStream, clock: DemoClock, configuration: DemoConfiguration = DemoConfiguration(),
        metrics: DashboardMetrics, now: @escaping @Sendable () -> Date, executor: (any TaskExecutor)? = nil,
        logSink: @escaping @Sendable (LogRecord) -> Void, flowSink: @escaping @Sendable (FlowStatus) -> Void
    ) {
        self.stream = stream
        self.clock = clock
        self.configuration = configuration
        self.metrics = metrics
        self.now = now
        self.executor = executor
        self.flowSink = flowSink
        random = SharedRandom(seed: configuration.seed)
        auth = AuthService(clock: clock, faults: faults, random: random)
        (loginTapStream, loginTaps) = AsyncStream.makeStream(of: Credentials.self, bufferingPolicy: .bufferingNewest(8))
        (refreshStream, refreshRequests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

        func logger(_ label: String) -> Logger {
            var logger = Logger(label: label) { label in
                StreamLogHandler(label: label, stream: stream, now: now, sink: logSink)
            }
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
            publish: { flowSink($0) }, now: now)
        self.session = session
        // The node lives as long as the app, and the app owns the store: capture it weakly, or the two would
        // keep each other alive.
        loggedInHandler = appHandler.catch(AuthError.sessionExpired, name: "logged in") { [weak session] in
            session?.expire()
        }
    }

    /// Starts the flows. Call once.
    public func start() {
        publish(.login(state: "logged out", health: .idle, outcome: "press l to log in"))
        publish(.session(state: "no session", health: .idle, outcome: "—"))
        publish(.sync(state: "waiting", health: .idle, outcome: "—"))
        let tasks = [
            spawn { await self.runLoginFlow() },
            spawn { await self.runSessionFlow() },
            spawn { await self.runSessionTimer() },
            spawn { await self.runSyncFlow() },
        ]
        state.withLock { $0.tasks += tasks }
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
        if let executor {
            return Task(executorPreference: executor) { await operation() }
        }
        return Task { await operation() }
    }
}
