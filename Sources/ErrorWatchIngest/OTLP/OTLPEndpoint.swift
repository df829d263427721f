import ErrorWatchWire

/// Where an OTLP receiver listens: `otlp:PORT` (OTLP/HTTP on loopback), `otlp:HOST:PORT`, or the same with
/// `otlp-grpc:` for OTLP/gRPC, beside the NDJSON feed's `unix:` and `tcp:` ``Endpoint``s.
///
/// ```swift
/// try OTLPEndpoint(parsing: "otlp:4318")           // OTLP/HTTP on 127.0.0.1:4318
/// try OTLPEndpoint(parsing: "otlp:0.0.0.0:4318")   // every interface, on purpose
/// try OTLPEndpoint(parsing: "otlp-grpc:4317")      // OTLP/gRPC on 127.0.0.1:4317
/// ```
public struct OTLPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// How OTLP arrives at an endpoint.
    public enum Transport: String, Sendable, Hashable {
        /// OTLP/HTTP: `POST /v1/logs` and the like, protobuf or JSON (``OTLPReceiver``).
        case http = "otlp"
        /// OTLP/gRPC: the collector services over HTTP/2 (``OTLPGRPCReceiver``).
        case grpc = "otlp-grpc"
    }

    /// The address to bind.
    public var host: String
    /// The port; 0 asks for any free port.
    public var port: Int
    /// HTTP or gRPC.
    public var transport: Transport

    /// Creates an endpoint from its parts.
    public init(host: String = Endpoint.defaultHost, port: Int, transport: Transport = .http) {
        self.host = host
        self.port = port
        self.transport = transport
    }

    /// Whether `text` names an OTLP endpoint (starts with `otlp:` or `otlp-grpc:`), so a command line can route it
    /// here.
    public static func matches(_ text: String) -> Bool { text.hasPrefix("otlp:") || text.hasPrefix("otlp-grpc:") }

    /// Parses `otlp:PORT`, `otlp:HOST:PORT`, `otlp:[IPv6]:PORT`, and the same with `otlp-grpc:`.
    public init(parsing text: String) throws(WireTransportError) {
        let transport: Transport = text.hasPrefix("otlp-grpc:") ? .grpc : .http
        guard Self.matches(text) else { throw .invalidEndpoint(text) }
        // The same host and port rules as a TCP feed endpoint.
        let rest = text.dropFirst(transport.rawValue.count + 1)
        guard case .tcp(let host, let port)? = try? Endpoint(parsing: "tcp:" + rest) else {
            throw .invalidEndpoint(text)
        }
        self.init(host: host, port: port, transport: transport)
    }

    /// `otlp:HOST:PORT` or `otlp-grpc:HOST:PORT`, the form ``init(parsing:)`` reads.
    public var description: String {
        let scheme = transport.rawValue
        return host.contains(":") ? "\(scheme):[\(host)]:\(port)" : "\(scheme):\(host):\(port)"
    }

    /// The base URL an OpenTelemetry exporter is given: `http://127.0.0.1:4318` (for gRPC too: an insecure
    /// exporter's endpoint, `http://127.0.0.1:4317`).
    public var url: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }
}
