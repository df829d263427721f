import ErrorWatchWire
import Foundation

/// What a ``FeedListener`` knows about one producer: who it is, whether it is connected, what it sent.
public struct ProducerStatus: Sendable, Hashable {
    /// Whether the producer is connected, and why not.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// Connected and being read.
        case connected
        /// Gone, for the reason given.
        case disconnected(DisconnectReason)

        /// `connected`, or `gone (reason)`: its connection closed.
        public var description: String {
            switch self {
            case .connected: "connected"
            case .disconnected(let reason): "gone (\(reason))"
            }
        }
    }

    /// Why a connection ended.
    public enum DisconnectReason: Sendable, Hashable, CustomStringConvertible {
        /// The producer closed it (or it broke).
        case closedByPeer
        /// The producer sent more than the configured bytes per second; the listener closed it.
        case rateLimitExceeded(bytesPerSecond: Int)
        /// The producer sent more bad lines than the configured budget; the listener closed it.
        case errorBudgetExceeded(badLines: Int)
        /// The producer sent nothing for the configured idle time; the listener closed it.
        case idle
        /// The producer did not finish a line within the configured time of its first byte (it stopped, or
        /// trickled); the listener closed it.
        case stalledMidLine(seconds: Int)
        /// Every connection slot was taken and this connection had held an unfinished line the longest, for
        /// `seconds`; the listener closed it to admit a new connection.
        case evictedForNewConnection(heldSeconds: Int)
        /// The unfinished lines of all connections together went over the listener's budget, and this connection
        /// held the largest; the listener closed it.
        case partialLineBudgetExceeded(bytes: Int)
        /// The listener shut down.
        case listenerShutdown
        /// A socket error.
        case failed(String)

        /// A short phrase for the Sources pane: `closed: over 65536 bytes/s`.
        public var description: String {
            switch self {
            case .closedByPeer: "closed by peer"
            case .rateLimitExceeded(let limit): "closed: over \(limit) bytes/s"
            case .errorBudgetExceeded(let count): "closed: \(count) bad lines"
            case .idle: "closed: idle"
            case .stalledMidLine(let seconds): "closed: a line unfinished after \(seconds)s"
            case .evictedForNewConnection(let seconds):
                "closed to admit a new connection: a line unfinished for \(seconds)s"
            case .partialLineBudgetExceeded(let bytes): "closed: held \(bytes) bytes of an unfinished line"
            case .listenerShutdown: "listener shut down"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }

    /// Bad input, counted by kind.
    public struct ErrorCounts: Sendable, Hashable {
        /// Lines that are not JSON, not an object, or lack or garble a required field (binary garbage lands here
        /// when it is valid UTF-8).
        public var malformed = 0
        /// Lines over the 64 KiB limit.
        public var tooLong = 0
        /// Lines that are not UTF-8.
        public var invalidUTF8 = 0
        /// Lines of a major version this listener does not read.
        public var unknownVersion = 0
        /// Connections that ended in the middle of a line.
        public var truncated = 0
        /// Connections that sent no data at all before they closed or timed out.
        public var idleNoData = 0

        /// Creates zero counts.
        public init() {}

        /// Bad lines: malformed, too long, invalid UTF-8 and unknown version together.
        public var badLines: Int { malformed + tooLong + invalidUTF8 + unknownVersion }

        /// All counts together.
        public var total: Int { badLines + truncated + idleNoData }

        /// Counts one bad line.
        mutating func count(_ error: WireError) {
            switch error {
            case .lineTooLong: tooLong += 1
            case .invalidUTF8: invalidUTF8 += 1
            case .binary: malformed += 1
            case .unsupportedVersion: unknownVersion += 1
            case .malformedJSON, .notAnObject, .missingField, .invalidField: malformed += 1
            }
        }
    }

    /// The connection.
    public var id: ProducerID
    /// The peer's address: `127.0.0.1:51234`, or the socket path for a Unix socket.
    public var peer: String
    /// `service.name` of the first event that had one.
    public var serviceName: String?
    /// `process.pid` of the first event that had one.
    public var pid: Int?
    /// `host.name` of the first event that had one.
    public var hostName: String?
    /// Connected, or disconnected and why.
    public var state: State
    /// Good events received.
    public var eventsReceived: UInt64 = 0
    /// Bytes received.
    public var bytesReceived: UInt64 = 0
    /// Bad input by kind.
    public var errors = ErrorCounts()
    /// The last bad line's problem.
    public var lastError: WireError?
    /// When the producer connected.
    public var connectedAt: Date
    /// When the last good event arrived.
    public var lastEventAt: Date?

    /// Creates the status of a producer that has just connected.
    public init(id: ProducerID, peer: String, connectedAt: Date) {
        self.id = id
        self.peer = peer
        self.state = .connected
        self.connectedAt = connectedAt
    }

    /// The name to show: the service name once known, else the peer address.
    public var displayName: String { serviceName ?? peer }

    /// Whether the producer is connected.
    public var isConnected: Bool { state == .connected }
}
