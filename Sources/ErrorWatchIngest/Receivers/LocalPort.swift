#if canImport(Glibc)
    import Glibc
#endif

/// Whether a loopback TCP port is free, for `errorwatch run` and `--spotlight`, which take the SDKs' default ports
/// (4317, 4318, 8969) when nobody holds them and any free port otherwise.
public enum LocalPort {
    /// Whether `port` on 127.0.0.1 can be bound now (it may be taken a moment later: the receiver's own bind
    /// still says so clearly).
    public static func isFree(_ port: Int, host: String = "127.0.0.1") -> Bool {
        guard (1...65_535).contains(port) else { return false }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        // As the receivers bind: a port left in TIME_WAIT by a previous run is free to them.
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// `preferred` when it is free, else 0 (any free port, chosen when the receiver binds).
    public static func preferred(_ preferred: Int, host: String = "127.0.0.1") -> Int {
        isFree(preferred, host: host) ? preferred : 0
    }
}
