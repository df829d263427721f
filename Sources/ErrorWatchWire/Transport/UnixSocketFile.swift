import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What to do about a file already at a Unix socket path before binding there.
enum UnixSocketFile {
    /// Removes a stale socket file (connecting is refused: its listener crashed); throws when a listener is alive
    /// (``WireTransportError/addressInUse(path:)``) or when the path is not a socket.
    static func prepare(path: String, group: any EventLoopGroup) async throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw WireTransportError.notASocket(path: path) }
        do {
            let probe = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(1))
                .connect(unixDomainSocketPath: path).get()
            try? await probe.close()
            throw WireTransportError.addressInUse(path: path)
        } catch let error as WireTransportError {
            throw error
        } catch let error as IOError where error.errnoCode == ECONNREFUSED || error.errnoCode == ENOENT {
            unlink(path)
        } catch let error as NIOConnectionError {
            let refused = error.connectionErrors.contains { attempt in
                (attempt.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            guard refused || error.connectionErrors.isEmpty else { throw error }
            unlink(path)
        }
    }
}
