import NIOCore

/// Why a feed could not listen or connect.
public enum WireTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint text is not `unix:PATH`, `tcp:PORT` or `tcp:HOST:PORT`.
    case invalidEndpoint(String)
    /// A process accepts connections on the socket already: `listener` names it when the system says which
    /// (`errorwatch, pid 4242`), `nil` when it does not.
    case addressInUse(path: String, listener: String? = nil)
    /// A Unix socket path longer than the platform allows.
    case socketPathTooLong(path: String, limit: Int)
    /// The path exists and is not a socket; it is left alone.
    case notASocket(path: String)
    /// The listener was asked to start twice, or after shutting down.
    case alreadyStarted
    /// The system refused to listen on the endpoint; `reason` is its word for why (`permission denied`).
    case cannotListen(endpoint: String, reason: String)

    /// The message to show a user, for example `another process (errorwatch, pid 4242) is listening on /tmp/ew.sock`.
    public var description: String {
        switch self {
        case .invalidEndpoint(let text) where text.hasPrefix("otlp:"):
            "invalid endpoint \(text.debugDescription): expected otlp:PORT or otlp:HOST:PORT"
        case .invalidEndpoint(let text) where text.hasPrefix("otlp-grpc:"):
            "invalid endpoint \(text.debugDescription): expected otlp-grpc:PORT or otlp-grpc:HOST:PORT"
        case .invalidEndpoint(let text):
            "invalid endpoint \(text.debugDescription): expected unix:PATH, tcp:PORT or tcp:HOST:PORT"
        case .addressInUse(let path, let listener?): "another process (\(listener)) is listening on \(path)"
        case .addressInUse(let path, nil): "another process is listening on \(path)"
        case .socketPathTooLong(let path, let limit):
            "the socket path \(path) is \(path.utf8.count) bytes; the system allows at most \(limit)"
        case .notASocket(let path): "\(path) exists and is not a socket; not replacing it"
        case .alreadyStarted: "the listener was already started"
        case .cannotListen(let endpoint, let reason): "cannot listen on \(endpoint): \(reason)"
        }
    }
}
