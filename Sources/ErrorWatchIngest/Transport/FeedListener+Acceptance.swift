import NIOCore

extension FeedListener {
    /// Connects the registry's ``ProducerRegistry/accepting`` to the listening socket: while every slot is taken
    /// and nobody can be evicted, the socket is not read (`autoRead` off), so newcomers wait in the kernel's backlog
    /// rather than being accepted and closed with their lines unread; meanwhile, every half ``evictionGrace``, the
    /// connection that has held an unfinished line the longest is evicted once it has held it for the grace, so a
    /// waiting producer is not locked out by connections that trickle.
    ///
    /// Each change is applied on the listening socket's event loop from the registry's current state, so whichever
    /// application runs last applies the latest state.
    static func manageAcceptance(of server: any Channel, registry: ProducerRegistry, grace: TimeAmount) {
        let interval = TimeAmount.nanoseconds(max(50_000_000, grace.nanoseconds / 2))
        registry.setAcceptance { _ in
            server.eventLoop.execute {
                let accepting = registry.accepting
                server.setOption(ChannelOptions.autoRead, value: accepting).whenComplete { _ in }
                if !accepting { watchWhilePaused(server: server, registry: registry, interval: interval) }
            }
        }
    }

    /// While accepting is paused, evicts the stalest unfinished-line holder once it has held its line for the grace.
    private static func watchWhilePaused(server: any Channel, registry: ProducerRegistry, interval: TimeAmount) {
        server.eventLoop.scheduleTask(in: interval) {
            guard server.isActive, !registry.accepting else { return }
            if let victim = registry.evictForWaiting() {
                close(victim.channel, reason: .evictedForNewConnection(heldSeconds: victim.heldSeconds))
            }
            watchWhilePaused(server: server, registry: registry, interval: interval)
        }
    }
}
