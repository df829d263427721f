import Synchronization

/// The switches the user flips by keypress to break and heal the simulated backend.
public final class FaultInjector: Sendable {
    /// A snapshot of every switch.
    public struct Faults: Sendable, Hashable {
        /// No network at all: every request fails fast with ``NetworkError/offline``.
        public var offline = false
        /// Requests take seconds; those over the timeout fail with ``NetworkError/timeout(after:)``.
        public var slowNetwork = false
        /// The next login is rejected as ``CredentialsError/rejected``.
        public var rejectNextLogin = false
        /// The server rejects the current session token until the user logs in again.
        public var sessionRevoked = false
        /// The next this-many requests answer 503.
        public var serverErrorsRemaining = 0
        /// The next profile response is malformed, which the client fails to decode (a bug on our side).
        public var malformedNextResponse = false
        /// The next profile names a plan the client does not know, which reaches a branch that "cannot happen".
        public var unknownPlanNext = false

        /// Everything healthy.
        public init() {}

        /// Whether anything is broken right now.
        public var anyActive: Bool {
            offline || slowNetwork || rejectNextLogin || sessionRevoked || serverErrorsRemaining > 0
                || malformedNextResponse || unknownPlanNext
        }
    }

    private let state = Mutex(Faults())

    /// Everything healthy.
    public init() {}

    /// The switches as they are now.
    public var current: Faults { state.withLock { $0 } }

    /// Changes switches atomically and returns what `body` returns.
    @discardableResult
    public func update<T>(_ body: (inout Faults) -> T) -> T { state.withLock { body(&$0) } }

    /// Takes one pending server error, if any: `true` means this request must answer 503.
    func consumeServerError() -> Bool {
        state.withLock { f in
            guard f.serverErrorsRemaining > 0 else { return false }
            f.serverErrorsRemaining -= 1
            return true
        }
    }

    /// Takes the one-shot invalid-credentials fault.
    func consumeRejectedLogin() -> Bool {
        state.withLock { f in
            defer { f.rejectNextLogin = false }
            return f.rejectNextLogin
        }
    }

    /// Takes the one-shot malformed-response fault.
    func consumeMalformedResponse() -> Bool {
        state.withLock { f in
            defer { f.malformedNextResponse = false }
            return f.malformedNextResponse
        }
    }

    /// Takes the one-shot unknown-plan fault.
    func consumeUnknownPlan() -> Bool {
        state.withLock { f in
            defer { f.unknownPlanNext = false }
            return f.unknownPlanNext
        }
    }

    /// Heals everything.
    public func recoverAll() { state.withLock { $0 = Faults() } }
}
