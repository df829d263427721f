import ErrorWatchWire
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Binding a Unix socket safely: stale files replaced, live listeners refused, mode 0600 from the first moment.
enum UnixSocketFile {
    /// Binds `bootstrap` at `path` with mode 0600.
    ///
    /// `bind(2)` creates the file with the process umask, and `chmod` afterwards would leave a moment in which
    /// another user could connect. So the socket is bound inside a fresh directory of mode 0700 next to `path`,
    /// made 0600 there, and renamed onto `path` (atomically replacing a stale file). When that private path would
    /// not fit `sun_path`, it falls back to binding at `path` and changing the mode at once.
    static func bind(_ bootstrap: ServerBootstrap, path: String, group: any EventLoopGroup) async throws -> any Channel
    {
        let channel = try await bindPrivately(bootstrap, path: path, group: group)
        return channel
    }

    /// The device and inode of the socket file now at `path`, to recognise it at shutdown.
    static func identity(of path: String) -> SocketFileID? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return SocketFileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Removes `path` only if it is still the socket we created: not a user's file put there since, nor another
    /// listener's socket. Returns whether it removed it.
    @discardableResult
    static func removeIfOurs(_ path: String, identity: SocketFileID?) -> Bool {
        guard let identity, Self.identity(of: path) == identity else { return false }
        return unlink(path) == 0
    }

    private static func bindPrivately(_ bootstrap: ServerBootstrap, path: String, group: any EventLoopGroup)
        async throws -> any Channel
    {
        try await prepare(path: path, group: group)
        let directory = (path as NSString).deletingLastPathComponent
        let privateDirectory =
            (directory.isEmpty ? "." : directory) + "/.errorwatch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let privatePath = privateDirectory + "/s"
        guard privatePath.utf8.count < 100, mkdir(privateDirectory, 0o700) == 0 else {
            let channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            try await restrict(path, closingOnFailure: channel)
            return channel
        }
        defer { rmdir(privateDirectory) }
        let channel = try await bootstrap.bind(unixDomainSocketPath: privatePath).get()
        try await restrict(privatePath, closingOnFailure: channel)
        guard rename(privatePath, path) == 0 else {
            let code = errno
            unlink(privatePath)
            try? await channel.close()
            throw IOError(errnoCode: code, reason: "rename(\(privatePath), \(path))")
        }
        return channel
    }

    private static func restrict(_ path: String, closingOnFailure channel: any Channel) async throws {
        guard chmod(path, 0o600) == 0 else {
            let code = errno
            try? await channel.close()
            throw IOError(errnoCode: code, reason: "chmod(\(path), 0600)")
        }
    }

    /// Removes a stale socket file (connecting is refused: its listener crashed); throws when a listener is alive
    /// (``WireTransportError/addressInUse(path:)``) or when the path is not a socket.
    private static func prepare(path: String, group: any EventLoopGroup) async throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw WireTransportError.notASocket(path: path) }
        do {
            let probe = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(1))
                .connect(unixDomainSocketPath: path).get()
            try? await probe.close()
            throw WireTransportError.addressInUse(path: path, listener: listeningProcess(at: path))
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

extension UnixSocketFile {
    /// Which process listens on the socket at `path`, as `NAME, pid N` (the kernel's peer credentials of a
    /// connection, and the name in `/proc/PID/comm`), or `nil` when the system does not say.
    static func listeningProcess(at path: String) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        #if os(Linux)
            // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`, which Glibc's module leaves out (_GNU_SOURCE).
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else {
                return nil
            }
            let pid = credentials.pid
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard let name, !name.isEmpty else { return "pid \(pid)" }
            return "\(name.prefix(32)), pid \(pid)"
        #else
            return nil
        #endif
    }
}

/// A file's identity: its device and inode.
struct SocketFileID: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
}
