import ErrorWatchWire
import Foundation

/// What an ``OTLPReceiver`` knows about one sender: a resource (service and instance) once a request from it
/// decoded, or a client address for requests that never did.
public struct OTLPSourceStatus: Sendable, Hashable {
    /// `service.name/service.instance.id`, or `client HOST` for requests that did not decode.
    public var key: String
    /// `service.name`.
    public var serviceName: String?
    /// `service.instance.id`.
    public var instanceID: String?
    /// `host.name`.
    public var hostName: String?
    /// `process.pid`.
    public var pid: Int?
    /// The address of the last connection that sent for it.
    public var peer: String
    /// Export requests accepted (answered 200).
    public var requests: UInt64 = 0
    /// Log records, metric data points and spans received in accepted requests.
    public var records: UInt64 = 0
    /// Events delivered to the dashboard.
    public var events: UInt64 = 0
    /// Records rejected in accepted requests (reported in `partial_success`), and parts of accepted records left
    /// unread (a span's `exception` events past the limit).
    public var rejected: UInt64 = 0
    /// Requests refused with 503 (over gRPC, `UNAVAILABLE`) because the dashboard was behind (the sender retries
    /// them).
    public var refused: UInt64 = 0
    /// Requests answered 400, 404, 405, 413 or 415; over gRPC, calls answered `INVALID_ARGUMENT`,
    /// `RESOURCE_EXHAUSTED` or `DEADLINE_EXCEEDED`.
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

    /// The name to show: `service.name` (with the instance when there is one), else the key.
    public var displayName: String {
        guard let serviceName else { return key }
        return instanceID.map { "\(serviceName) (\($0))" } ?? serviceName
    }
}
