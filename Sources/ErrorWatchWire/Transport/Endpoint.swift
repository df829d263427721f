import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a feed listens or a forwarder connects: a Unix domain socket or a TCP address.
///
/// ```swift
/// try Endpoint(parsing: "unix:/tmp/errorwatch.sock")   // .unix(path: "/tmp/errorwatch.sock")
/// try Endpoint(parsing: "tcp:7777")                    // .tcp(host: "127.0.0.1", port: 7777)
/// try Endpoint(parsing: "tcp:0.0.0.0:7777")            // every interface, on purpose
/// ```
public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// A Unix domain socket at a file system path.
    case unix(path: String)
    /// A TCP address; port 0 asks a listener for any free port.
    case tcp(host: String, port: Int)

    /// The host a TCP endpoint gets when none is given: loopback only.
    public static let defaultHost = "127.0.0.1"

    /// The longest Unix socket path the platform's `sockaddr_un.sun_path` holds, in bytes (107 on Linux).
    public static let maximumSocketPathLength: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Parses `unix:PATH`, `tcp:PORT` (loopback), `tcp:HOST:PORT` or `tcp:[IPv6]:PORT`.
    public init(parsing text: String) throws(WireTransportError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .invalidEndpoint(text) }
            // A longer path would be cut by the kernel: nobody could connect to the socket it names.
            guard path.utf8.count <= Self.maximumSocketPathLength else {
                throw .socketPathTooLong(path: path, limit: Self.maximumSocketPathLength)
            }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp:") else { throw .invalidEndpoint(text) }
        let rest = text.dropFirst(4)
        guard let colon = rest.lastIndex(of: ":") else {
            guard let port = Self.port(rest) else { throw .invalidEndpoint(text) }
            self = .tcp(host: Self.defaultHost, port: port)
            return
        }
        var host = rest[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, let port = Self.port(rest[rest.index(after: colon)...]) else {
            throw .invalidEndpoint(text)
        }
        self = .tcp(host: String(host), port: port)
    }

    /// `unix:PATH` or `tcp:HOST:PORT`, the form ``init(parsing:)`` reads.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }

    private static func port(_ text: Substring) -> Int? {
        guard let port = Int(text), (0...65_535).contains(port) else { return nil }
        return port
    }
}

