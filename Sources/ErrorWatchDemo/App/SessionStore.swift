import Foundation
import Synchronization

/// The logged-in session of the simulated app, and what happens when it ends.
///
/// The handler tree's "logged in" node holds it weakly and calls ``expire()`` on a 401; the store then sends
/// the user back to the login screen and, with auto-login on, taps "log in" again.
final class SessionStore: Sendable {
    private struct State {
        var session: Session?
        var autoLogin: Bool
        var expiries = 0
    }
    private let state: Mutex<State>
    private let loginTaps: AsyncStream<Credentials>.Continuation
    private let publish: @Sendable (DemoStatus) -> Void
    private let now: @Sendable () -> Date

    init(
        autoLogin: Bool, loginTaps: AsyncStream<Credentials>.Continuation,
        publish: @escaping @Sendable (DemoStatus) -> Void, now: @escaping @Sendable () -> Date
    ) {
        state = Mutex(State(autoLogin: autoLogin))
        self.loginTaps = loginTaps
        self.publish = publish
        self.now = now
    }

    /// The session, if a user is logged in.
    var current: Session? { state.withLock { $0.session } }

    /// Whether the app logs in again by itself after an expiry.
    var autoLogin: Bool { state.withLock { $0.autoLogin } }

    /// Stores a fresh session.
    func signIn(_ session: Session) {
        state.withLock { $0.session = session }
        publish(
            DemoStatus(
                name: "session", state: "active", health: .ok, detail: "token \(session.token)", changedAt: now())
        )
    }

    /// The server rejected the session: back to the login screen, and log in again when auto-login is on.
    func expire() {
        let (hadSession, autoLogin) = state.withLock { s in
            defer {
                s.session = nil
                s.expiries += 1
            }
            return (s.session != nil, s.autoLogin)
        }
        guard hadSession else { return }
        publish(
            DemoStatus(
                name: "session", state: "expired", health: .failing,
                detail: autoLogin ? "A-401, logging in again" : "A-401, back to login", changedAt: now()))
        if autoLogin { loginTaps.yield(.demo) }
    }

    /// Flips auto-login and returns the new setting.
    func toggleAutoLogin() -> Bool {
        state.withLock { s in
            s.autoLogin.toggle()
            return s.autoLogin
        }
    }
}
