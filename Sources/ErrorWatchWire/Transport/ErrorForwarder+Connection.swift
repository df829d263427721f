import NIOCore
import NIOPosix

extension ErrorForwarder {
    /// Connects now; on failure, tries again after the current backoff.
    func connect() {
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(2))
            .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ForwarderChannelHandler(forwarder: self))
                }
            }
        let future: EventLoopFuture<any Channel>
        switch endpoint {
        case .unix(let path): future = bootstrap.connect(unixDomainSocketPath: path)
        case .tcp(let host, let port): future = bootstrap.connect(host: host, port: port)
        }
        future.whenComplete { result in
            switch result {
            case .success(let channel):
                let action = self.state.withLock { $0.connected(channel) }
                switch action {
                case .drain, .drainLater: self.loop.execute { self.drain(channel) }
                case .close: channel.close(promise: nil)
                case .none, .pollLater: break
                }
            case .failure:
                self.scheduleReconnect()
            }
        }
    }

    /// Called by the channel handler when the connection ends.
    func connectionLost(_ channel: any Channel) {
        if state.withLock({ $0.lost(channel) }) { scheduleReconnect() }
    }

    private func scheduleReconnect() {
        let delay = state.withLock { $0.nextBackoff() }
        guard let delay else { return }
        let task = loop.scheduleTask(in: TimeAmount(delay)) { self.connect() }
        let stale = state.withLock { $0.reconnectScheduled(task) }
        if stale { task.cancel() }
    }
}

/// Watches the forwarder's connection: drains when writable again, reports when closed. Event-loop only.
final class ForwarderChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let forwarder: ErrorForwarder

    init(forwarder: ErrorForwarder) {
        self.forwarder = forwarder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The listener never speaks; anything it sends is ignored.
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { forwarder.drain(context.channel) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        forwarder.connectionLost(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
