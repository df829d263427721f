import Foundation

/// What a ``SentryReceiver`` knows about one SDK client: a `sentry_client` (`sentry.python/2.75.0`) sending for
/// one `release`, or a client address for requests that never decoded.
public struct SentrySourceStatus: Sendable, Hashable {
    /// `CLIENT RELEASE` (`sentry.python/2.75.0 shop@1.2.0`), or `client HOST` for requests that did not decode.
    public var key: String
    /// The SDK's `sentry_client`, if it said.
    public var client: String?
    /// The events' `release`, if they said.
    public var release: String?
    /// The address of the last connection that sent for it.
    public var peer: String
    /// Envelopes (and store requests) accepted.
    public var envelopes: UInt64 = 0
    /// Events delivered to the dashboard (errors, failed spans, log records).
    public var events: UInt64 = 0
    /// Attachments received: counted, not kept.
    public var attachments: UInt64 = 0
    /// Items skipped: of types not read (sessions, client reports, profiles…) and broken ones.
    public var skippedItems: UInt64 = 0
    /// Requests answered 429 because the dashboard was behind.
    public var rateLimited: UInt64 = 0
    /// Requests answered 400, 401, 404, 405, 413 or 415.
    public var badRequests: UInt64 = 0
    /// The last problem met, if any.
    public var lastProblem: String?
    /// When the last accepted envelope arrived.
    public var lastEventAt: Date?

    /// A client not heard from yet.
    public init(key: String, peer: String) {
        self.key = key
        self.peer = peer
    }

    /// The name to show: the client with its release, else the key.
    public var displayName: String {
        guard let client else { return key }
        return release.map { "\(client) (\($0))" } ?? client
    }
}

extension SentrySourceStatus: RecentSourceRow {}
