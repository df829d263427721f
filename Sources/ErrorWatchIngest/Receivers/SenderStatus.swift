import Foundation

/// What a receiver of requests knows of one sender, whatever its protocol: an OpenTelemetry resource (service and
/// instance) over OTLP/HTTP or gRPC, a Sentry SDK client sending for a release, or a client address whose requests
/// never decoded (`client HOST`). One row of the `Sources` pane each; what a protocol does not have stays `nil` or 0.
public struct SenderStatus: Sendable, Hashable {
    /// `service.name/service.instance.id`, `CLIENT RELEASE`, or `client HOST` for requests that did not decode.
    public var key: String
    /// `service.name` and `service.instance.id` (OTLP).
    public var serviceName: String?
    public var instanceID: String?
    /// `host.name` and `process.pid` (OTLP).
    public var hostName: String?
    public var pid: Int?
    /// The SDK's `sentry_client` (`sentry.python/2.75.0`) and its events' `release` (Sentry).
    public var client: String?
    public var release: String?
    /// The address of the last connection that sent for it.
    public var peer: String
    /// Requests accepted: exports answered `OK`, envelopes and store requests.
    public var requests: UInt64 = 0
    /// Records received in accepted requests: log records, metric data points, spans (OTLP).
    public var records: UInt64 = 0
    /// Events delivered to the dashboard.
    public var events: UInt64 = 0
    /// Records rejected in accepted requests (OTLP's `partial_success`) and parts left unread (a span's `exception`
    /// events past the limit); a Sentry envelope's items skipped (types not read: sessions, client reports…; broken
    /// ones).
    public var rejected: UInt64 = 0
    /// Attachments received (Sentry): counted, not kept.
    public var attachments: UInt64 = 0
    /// Requests refused because the dashboard was behind: OTLP/HTTP's 503, gRPC's `UNAVAILABLE`, Sentry's 429. The
    /// sender retries them.
    public var refused: UInt64 = 0
    /// Requests refused as bad: a status 400 to 415, or over gRPC `INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED` or
    /// `DEADLINE_EXCEEDED`; a breach of HTTP/2.
    public var badRequests: UInt64 = 0
    /// The last problem met, if any.
    public var lastProblem: String?
    /// When the last accepted request arrived.
    public var lastEventAt: Date?

    /// A sender not heard from yet.
    public init(key: String, peer: String) {
        self.key = key
        self.peer = peer
    }

    /// The name to show: the client with its release, else `service.name` with the instance, else the key.
    public var displayName: String {
        if let client { return release.map { "\(client) (\($0))" } ?? client }
        guard let serviceName else { return key }
        return instanceID.map { "\(serviceName) (\($0))" } ?? serviceName
    }
}
