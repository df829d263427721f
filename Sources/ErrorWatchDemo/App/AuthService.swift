import ErrorStreaming
import Foundation

/// A simulated authentication backend: answers after a realistic latency on the injected clock, and fails
/// in whatever way the ``FaultInjector`` says.
public struct AuthService: Sendable {
    /// How long a request may take before it fails with ``NetworkError/timeout(after:)``.
    public static let timeout: Duration = .seconds(2)

    let clock: ErasedClock
    let faults: FaultInjector
    let random: SharedRandom

    /// A backend answering on `clock`, failing as `faults` say, with latencies drawn from `random`.
    public init(clock: ErasedClock, faults: FaultInjector, random: SharedRandom) {
        self.clock = clock
        self.faults = faults
        self.random = random
    }

    /// Logs in. Fails with ``CredentialsError``, ``NetworkError`` or ``ServerError`` or, on a malformed response, a `DecodingError`.
    public func login(_ credentials: Credentials) async throws -> Session {
        try await roundTrip(typical: random.milliseconds(90, 220))
        if faults.consumeServerError() { throw ServerError.unavailable(status: 503, request: "POST /v1/session") }
        if faults.consumeRejectedLogin() || credentials.password.isEmpty { throw CredentialsError.rejected }
        faults.update { $0.sessionRevoked = false }
        return Session(token: "tok-\(random.int(in: 100_000...999_999))", user: credentials.email)
    }

    /// Fetches the profile for a session. A revoked session fails with ``SessionError/expired``.
    public func fetchProfile(_ session: Session) async throws -> Profile {
        try await roundTrip(typical: random.milliseconds(40, 120))
        if faults.consumeServerError() { throw ServerError.unavailable(status: 503, request: "GET /v1/profile") }
        if faults.current.sessionRevoked { throw SessionError.expired }
        let body =
            if faults.consumeMalformedResponse() {
                #"{"name": "Ada Lovelace", "plan": 42}"#
            } else if faults.consumeUnknownPlan() {
                #"{"name": "Ada Lovelace", "plan": "legacy-enterprise"}"#
            } else {
                #"{"name": "Ada Lovelace", "plan": "pro"}"#
            }
        return try JSONDecoder().decode(Profile.self, from: Data(body.utf8))
    }

    /// Loads one section of the feed screen.
    public func fetchFeed(section: Int) async throws -> Int {
        try await roundTrip(typical: random.milliseconds(20, 60))
        if faults.consumeServerError() {
            throw ServerError.unavailable(status: 503, request: "GET /v1/feed?section=\(section)")
        }
        return section
    }

    /// A background sync of local changes. Same failure modes as any request.
    public func sync() async throws -> Int {
        try await roundTrip(typical: random.milliseconds(60, 180))
        if faults.consumeServerError() { throw ServerError.unavailable(status: 503, request: "POST /v1/sync") }
        return random.int(in: 0...12)
    }

    /// Simulates the network: fails fast when offline, waits the latency otherwise, times out when slow.
    private func roundTrip(typical: Duration) async throws {
        let current = faults.current
        if current.offline {
            try await clock.sleep(for: .milliseconds(30))
            throw NetworkError.offline
        }
        if current.slowNetwork {
            let latency = random.milliseconds(1_200, 3_500)
            if latency > Self.timeout {
                try await clock.sleep(for: Self.timeout)
                throw NetworkError.timeout(after: Self.timeout)
            }
            try await clock.sleep(for: latency)
        } else {
            try await clock.sleep(for: typical)
        }
        // The network may have gone away while the request was in flight.
        if faults.current.offline { throw NetworkError.offline }
    }
}
