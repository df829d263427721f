import ErrorWatchWire

/// Where a Sentry receiver listens: `sentry:PORT` (loopback) or `sentry:HOST:PORT`.
///
/// ```swift
/// try SentryEndpoint(parsing: "sentry:43210")          // 127.0.0.1:43210
/// try SentryEndpoint(parsing: "sentry:0.0.0.0:43210")  // every interface, on purpose
/// ```
public struct SentryEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The address to bind.
    public var host: String
    /// The port; 0 asks for any free port.
    public var port: Int

    /// Creates an endpoint from its parts.
    public init(host: String = Endpoint.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Whether `text` names a Sentry endpoint (starts with `sentry:`), so a command line can route it here.
    public static func matches(_ text: String) -> Bool { text.hasPrefix("sentry:") }

    /// Parses `sentry:PORT`, `sentry:HOST:PORT` or `sentry:[IPv6]:PORT`.
    public init(parsing text: String) throws(WireTransportError) {
        guard Self.matches(text) else { throw .invalidEndpoint(text) }
        // The same host and port rules as a TCP feed endpoint.
        guard case .tcp(let host, let port)? = try? Endpoint(parsing: "tcp:" + text.dropFirst(7)) else {
            throw .invalidEndpoint(text)
        }
        self.init(host: host, port: port)
    }

    /// `sentry:HOST:PORT`, the form ``init(parsing:)`` reads.
    public var description: String { host.contains(":") ? "sentry:[\(host)]:\(port)" : "sentry:\(host):\(port)" }

    /// The DSN an SDK is given (`http://errorwatch@127.0.0.1:43210/1`): any key and project, unless the receiver
    /// requires a key.
    public func dsn(key: String = "errorwatch", project: Int = 1) -> String {
        host.contains(":") ? "http://\(key)@[\(host)]:\(port)/\(project)" : "http://\(key)@\(host):\(port)/\(project)"
    }

    /// The Spotlight URL an SDK is given (`http://127.0.0.1:43210/stream`).
    public var spotlightURL: String {
        host.contains(":") ? "http://[\(host)]:\(port)/stream" : "http://\(host):\(port)/stream"
    }
}
