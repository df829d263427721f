import ErrorWatchWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The shape every socket receiver takes, written once: it binds an address (a TCP host and port, or a Unix socket
/// made safely: mode 0600, a stale file replaced, a live one refused), says where it is bound, and at shutdown stops
/// accepting, has its protocol close the connections it holds, and removes the socket file it made (only that one).
/// The NDJSON ``FeedListener`` and the HTTP receivers (``OTLPReceiver``, ``SentryReceiver``) are protocols on it;
/// what a connection is, what it may hold and how it is counted is theirs.
///
/// ```swift
/// let core = ReceiverCore(address: .tcp(host: "127.0.0.1", port: 0), name: "otlp:127.0.0.1:0")
/// let bound = try await core.start(ServerBootstrap(group: group).childChannelInitializer { … })
/// …
/// await core.shutdown { for channel in open { try? await channel.close() } }
/// ```
final class ReceiverCore: Sendable {
    /// Where a receiver listens.
    enum Address: Sendable, Hashable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    private enum Phase {
        case idle
        case listening(any Channel, Address)
        case shutDown
    }

    /// The address asked for.
    let address: Address
    /// The endpoint as the user wrote it, for errors (`cannot listen on otlp:127.0.0.1:4318: address in use`).
    let name: String
    private let phase = Mutex(Phase.idle)
    /// The socket file this receiver created, recognised at shutdown by device and inode.
    private let socketIdentity = Mutex<SocketFileID?>(nil)

    init(address: Address, name: String) {
        self.address = address
        self.name = name
    }

    /// The address actually bound (a TCP port 0 becomes the port chosen), once started.
    var boundAddress: Address? {
        phase.withLock { phase in
            if case .listening(_, let address) = phase { return address }
            return nil
        }
    }

    /// Binds `bootstrap` (its options and child initializer are the protocol's) at ``address``; returns the server
    /// channel and the address bound. Throws ``WireTransportError/alreadyStarted`` when started twice, and a
    /// ``ListenProblem`` in words when the address cannot be used.
    func start(_ bootstrap: ServerBootstrap, group: any EventLoopGroup) async throws -> (any Channel, Address) {
        guard phase.withLock({ if case .idle = $0 { true } else { false } }) else {
            throw WireTransportError.alreadyStarted
        }
        let channel: any Channel
        let bound: Address
        do {
            switch address {
            case .unix(let path):
                channel = try await UnixSocketFile.bind(bootstrap, path: path, group: group)
                bound = address
                socketIdentity.withLock { $0 = UnixSocketFile.identity(of: path) }
            case .tcp(let host, let port):
                channel = try await bootstrap.bind(host: host, port: port).get()
                bound = .tcp(host: host, port: channel.localAddress?.port ?? port)
            }
        } catch {
            throw ListenProblem.error(error, endpoint: name) ?? error
        }
        let accepted = phase.withLock { phase in
            guard case .idle = phase else { return false }
            phase = .listening(channel, bound)
            return true
        }
        if !accepted {
            try? await channel.close()
            throw WireTransportError.alreadyStarted
        }
        return (channel, bound)
    }

    /// Stops accepting, lets `closeConnections` close what the protocol holds open, and removes the socket file this
    /// receiver made (a file put at the path since, or another receiver's socket, is left alone). Does nothing when
    /// it never started or already stopped.
    func shutdown(closeConnections: () async -> Void) async {
        let previous = phase.withLock { phase in
            defer { phase = .shutDown }
            return phase
        }
        guard case .listening(let server, let bound) = previous else { return }
        try? await server.close()
        await closeConnections()
        if case .unix(let path) = bound { UnixSocketFile.removeIfOurs(path, identity: socketIdentity.withLock { $0 }) }
    }
}
