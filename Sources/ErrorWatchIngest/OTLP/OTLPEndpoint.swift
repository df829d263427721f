import ErrorWatchWire

/// Where an OTLP/HTTP receiver listens: `otlp:PORT` (loopback) or `otlp:HOST:PORT`, beside the NDJSON feed's
/// `unix:` and `tcp:` ``Endpoint``s.
///
/// ```swift
/// try OTLPEndpoint(parsing: "otlp:4318")           // 127.0.0.1:4318
/// try OTLPEndpoint(parsing: "otlp:0.0.0.0:4318")   // every interface, on purpose
/// ```
public struct OTLPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The address to bind.
    public var host: String
    /// The port; 0 asks for any free port.
    public var port: Int

    /// Creates an endpoint from its parts.
    public init(host: String = Endpoint.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Whether `text` names an OTLP endpoint (starts with `otlp:`), so a command line can route it here.
    public static func matches(_ text: String) -> Bool { text.hasPrefix("otlp:") }

    /// Parses `otlp:PORT`, `otlp:HOST:PORT` or `otlp:[IPv6]:PORT`.
    public init(parsing text: String) throws(WireTransportError) {
        guard Self.matches(text) else { throw .invalidEndpoint(text) }
        // The same host and port rules as a TCP feed endpoint.
        guard case .tcp(let host, let port)? = try? Endpoint(parsing: "tcp:" + text.dropFirst(5)) else {
            throw .invalidEndpoint(text)
        }
        self.init(host: host, port: port)
    }

    /// `otlp:HOST:PORT`, the form ``init(parsing:)`` reads.
    public var description: String { host.contains(":") ? "otlp:[\(host)]:\(port)" : "otlp:\(host):\(port)" }

    /// The base URL an OpenTelemetry exporter is given: `http://127.0.0.1:4318`.
    public var url: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }
}
