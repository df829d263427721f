import ErrorStreaming

/// Timings and sizes of the simulated app. The defaults make a lively demo; tests shorten them.
public struct DemoConfiguration: Sendable {
    /// Seeds every random choice (latencies, jitter, tokens), so a run can be replayed.
    public var seed: UInt64
    /// Whether the app logs in again by itself after a session expires.
    public var autoLogin: Bool
    /// How often the logged-in session refreshes the profile.
    public var sessionRefreshInterval: Duration
    /// How often the background sync runs.
    public var syncInterval: Duration
    /// Requests in a server-error burst (`s`).
    public var burstSize: Int
    /// Errors per second during an error storm (`S`).
    public var stormRate: Int
    /// How long an error storm lasts.
    public var stormDuration: Duration
    /// Attempts for a request that fails with a transient or offline error before giving up.
    public var maxAttempts: Int

    /// A configuration; the defaults make a lively demo.
    public init(
        seed: UInt64 = 7, autoLogin: Bool = true, sessionRefreshInterval: Duration = .seconds(2),
        syncInterval: Duration = .seconds(3), burstSize: Int = 12, stormRate: Int = 5_000,
        stormDuration: Duration = .seconds(3), maxAttempts: Int = 8
    ) {
        self.seed = seed
        self.autoLogin = autoLogin
        self.sessionRefreshInterval = sessionRefreshInterval
        self.syncInterval = syncInterval
        self.burstSize = burstSize
        self.stormRate = stormRate
        self.stormDuration = stormDuration
        self.maxAttempts = maxAttempts
    }
}

