import CoreMetrics
import ErrorStreaming
import Foundation
import Logging
import Synchronization

extension DemoApp {
    enum FlowUpdate {
        case login(state: String, health: StatusHealth, outcome: String)
        case session(state: String, health: StatusHealth, outcome: String)
        case sync(state: String, health: StatusHealth, outcome: String)
    }

    func publish(_ update: FlowUpdate) {
        let status: DemoStatus
        switch update {
        case .login(let s, let h, let o):
            status = DemoStatus(name: "login", state: s, health: h, detail: o, changedAt: now())
        case .session(let s, let h, let o):
            status = DemoStatus(name: "session", state: s, health: h, detail: o, changedAt: now())
        case .sync(let s, let h, let o):
            status = DemoStatus(name: "sync", state: s, health: h, detail: o, changedAt: now())
        }
        statusSink(status)
    }

    /// Errors worth another attempt: the network is gone or slow, or the server is briefly down.
    static func isWorthRetrying(_ error: any Error) -> Bool {
        error is NetworkError || error is ServerError
    }

    var backoff: Backoff { .exponential(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(8), jitter: 0.2) }

    // MARK: Login

    /// The login screen's binding: taps flow through a per-attempt operation, so a failure is one outcome
    /// among others and the next tap still works. The sequence is subscribed once and never re-subscribed.
    func runLoginFlow() async {
        let outcomes = loginTapStream.performEach { [self] credentials in
            try await self.attemptLogin(credentials)
        }
        for await outcome in outcomes {
            switch outcome {
            case .success(let session):
                Counter(label: "auth.login.succeeded", factory: metrics)
                    .increment()
                self.session.signIn(session)
                publish(.login(state: "logged in", health: .ok, outcome: "login ok as \(session.user)"))
                loginLog.info("login ok", metadata: ["user": "\(session.user)"])
                requestRefresh()
            case .failure(let error):
                Counter(label: "auth.login.failed", factory: metrics)
                    .increment()
                let classification = Classification(of: error)
                publish(
                    .login(
                        state: "login failed",
                        health: classification.category == .userActionable ? .degraded : .failing,
                        outcome: "\(classification.code) \(classification.userMessage)"))
            }
        }
    }

    /// One login attempt, retried with backoff while the failure is offline, timeout or 5xx. Every failed
    /// attempt is reported to the stream with its attempt number (by `retry`).
    func attemptLogin(_ credentials: Credentials) async throws -> Session {
        publish(.login(state: "logging in…", health: .ok, outcome: "POST /v1/session"))
        let started = clock.now
        let attempts = AttemptCounter()
        let maxAttempts = configuration.maxAttempts
        do {
            let session = try await retry(
                maxAttempts: maxAttempts, backoff: backoff, clock: clock, random: { self.random.unit() },
                reportingTo: stream,
                context: ErrorContext(source: "auth.login", severity: .warning, origin: .user),
                shouldRetry: { [self] error in
                    let again = Self.isWorthRetrying(error)
                    let n = attempts.next()
                    if again, n < maxAttempts {
                        publish(
                            .login(
                                state: "retrying \(n + 1)/\(maxAttempts)", health: .degraded,
                                outcome: "\(Classification(of: error).code) \(Classification(of: error).userMessage)"))
                    }
                    return again
                }
            ) {
                try await auth.login(credentials)
            }
            CoreMetrics.Timer(label: "auth.login.duration", factory: metrics).recordInterval(
                since: started, now: clock.now)
            return session
        } catch {
            CoreMetrics.Timer(label: "auth.login.duration", factory: metrics).recordInterval(
                since: started, now: clock.now)
            loginLog.warning("login gave up", metadata: ["attempts": "\(attempts.value)"])
            throw error
        }
    }

    // MARK: Session

    /// Refreshes the profile while logged in. Failures travel the handler tree from the "logged in" node: the
    /// root forwards them to the stream, the app node drops expected ones, the "logged in" node turns a 401
    /// into "back to login".
    func runSessionFlow() async {
        for await _ in refreshStream {
            guard let current = session.current else { continue }
            do {
                let profile = try await auth.fetchProfile(current)
                switch profile.plan {
                case "free", "pro", "team":
                    publish(
                        .session(state: "active", health: .ok, outcome: "profile \(profile.name) (\(profile.plan))"))
                default:
                    // The server validates plans against this same list; any other value is our bug.
                    reportBug(
                        "profile plan \"\(profile.plan)\" is not one the client knows", to: stream,
                        source: "auth.session")
                    publish(.session(state: "active", health: .degraded, outcome: "B-0 unknown plan"))
                }
            } catch {
                let classification = Classification(of: error)
                let handled = await loggedInHandler.handle(
                    error,
                    context: ErrorContext(source: "auth.session", severity: classification.severity, origin: .user))
                if !handled, session.current != nil {
                    publish(
                        .session(
                            state: "active", health: .degraded,
                            outcome: "\(classification.code) \(classification.userMessage)"))
                }
            }
        }
    }

    /// Asks the session flow to refresh on its interval.
    func runSessionTimer() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: configuration.sessionRefreshInterval) } catch { return }
            if session.current != nil { requestRefresh() }
        }
    }

    func requestRefresh() { refreshRequests.yield() }

    // MARK: Background sync

    /// Syncs in the background. Failures are retried with backoff, logged with `origin: background` (the log
    /// call carries the error, so it reaches the stream) and counted, but never alerted.
    func runSyncFlow() async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: configuration.syncInterval) } catch { return }
            publish(.sync(state: "syncing…", health: .ok, outcome: "POST /v1/sync"))
            let attempts = AttemptCounter()
            do {
                let changes = try await retry(
                    maxAttempts: 4, backoff: backoff, clock: clock, random: { self.random.unit() },
                    shouldRetry: { [self] error in
                        let n = attempts.next()
                        let cause = Classification(of: error)
                        syncLog.warning(
                            "sync attempt \(n) failed",
                            error: SyncError(cause: cause.code, reason: cause.technicalMessage),
                            metadata: ["origin": "background", "attempt": "\(n)"])
                        return Self.isWorthRetrying(error)
                    }
                ) {
                    try await auth.sync()
                }
                Counter(label: "sync.succeeded", factory: metrics)
                    .increment()
                publish(.sync(state: "idle", health: .ok, outcome: "synced \(changes) changes"))
            } catch is CancellationError {
                return
            } catch {
                Counter(label: "sync.failed", factory: metrics)
                    .increment()
                let classification = Classification(of: error)
                publish(
                    .sync(state: "idle", health: .failing, outcome: "\(classification.code) gave up, next run later"))
            }
        }
    }
}

/// Counts attempts inside `retry`'s `shouldRetry` closure.
final class AttemptCounter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { count.withLock { $0 } }
}

extension CoreMetrics.Timer {
    /// Records the time from `start` to `end` on the demo's clock.
    func recordInterval(since start: ErasedClock.Instant, now end: ErasedClock.Instant) {
        recordNanoseconds(start.duration(to: end).wholeNanoseconds)
    }
}
