import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A receiver of HTTP/1.1 requests for one ``HTTPIngestService`` (OTLP/HTTP, Sentry envelopes, any protocol that is
/// one request, one answer): the ``ReceiverCore``'s address and shutdown, and the budgets every such receiver keeps
/// the same way, written once: fair connection slots, a deadline per request, bodies held within a budget (the
/// ``ConnectionSlots``), and a send buffer that bounds what a client that never reads leaves in the kernel. The
/// service checks heads, decodes bodies and answers; the receiver is its host.
///
/// ```swift
/// let receiver = HTTPReceiver(address: .tcp(host: "127.0.0.1", port: 0), name: "lines:127.0.0.1:0",
///                             limits: limits) { connections in LinesService(…, connections: connections) }
/// let bound = try await receiver.start()
/// ```
final class HTTPReceiver<Service: HTTPIngestService>: Sendable {
    /// The limits in force.
    let limits: HTTPReceiverLimits
    /// The slots and body budget the service's requests hold.
    let connections: ConnectionSlots
    /// The protocol.
    let service: Service
    private let core: ReceiverCore
    private let group: any EventLoopGroup

    /// A receiver at `address` (`name` is how errors call it) serving the service `make` builds with the receiver's
    /// connection slots.
    init(
        address: ReceiverCore.Address, name: String, limits: HTTPReceiverLimits, group: any EventLoopGroup,
        service make: (ConnectionSlots) -> Service
    ) {
        self.limits = limits
        self.group = group
        connections = ConnectionSlots(capacity: limits.maximumConnections, bodyBudget: limits.bodyBudgetBytes)
        service = make(connections)
        core = ReceiverCore(address: address, name: name)
    }

    /// The address bound (port 0 becomes the port chosen), once started.
    var boundAddress: ReceiverCore.Address? { core.boundAddress }

    /// Starts listening; throws when the address cannot be bound.
    @discardableResult
    func start() async throws -> ReceiverCore.Address {
        let (limits, connections, service) = (self.limits, self.connections, self.service)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Answers are small: a fixed send buffer bounds what a client that never reads can leave in the kernel
            // (autotuning would let each connection grow to megabytes) and makes it noticed after a few hundred.
            .childChannelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .childChannelInitializer { channel in
                guard connections.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.remove(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try IngestHTTPHandler.configure(
                        channel.pipeline.syncOperations,
                        IngestHTTPHandler(service: service, connections: connections, limits: limits))
                }
            }
        return try await core.start(bootstrap, group: group).1
    }

    /// Stops accepting and closes every connection; returns once each is closed and out of the slots.
    func shutdown() async {
        let connections = self.connections
        await core.shutdown {
            for channel in connections.all {
                try? await channel.close()
                // The slot is given back by the close's own callback, which runs before this wait's.
                try? await channel.closeFuture.get()
            }
        }
    }
}

extension ReceiverCore.Address {
    /// The port of a TCP address (0 for a Unix socket).
    var port: Int {
        if case .tcp(_, let port) = self { return port }
        return 0
    }
}
