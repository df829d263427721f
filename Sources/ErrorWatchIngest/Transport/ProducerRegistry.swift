import ErrorWatchWire
import Foundation
import NIOCore
import OrderedCollections
import Synchronization

/// The listener's table of producers, shared by every connection handler and read by the app.
///
/// Handlers flush their counters once per read burst (`channelReadComplete`), not once per event, so the lock
/// is taken a few times per socket read, whatever the event rate. Status callbacks run after unlocking.
final class ProducerRegistry: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        /// Producers whose connection is open.
        var connected: [ProducerID: ProducerStatus] = [:]
        /// Producers whose connection closed, oldest disconnection first; at most `keptDisconnected`.
        var disconnected: OrderedDictionary<ProducerID, ProducerStatus> = [:]
        var channels: [ProducerID: any Channel] = [:]
        var shuttingDown = false
        var statistics = FeedListener.Statistics()
        /// The bytes of an unfinished line each connection holds, and their sum.
        var partial: [ProducerID: Int] = [:]
        var partialTotal = 0
    }

    private let state = Mutex(State())
    private let keptDisconnected: Int
    private let maximumConnections: Int
    private let partialLineBudget: Int
    private let onStatus: @Sendable (ProducerStatus) -> Void
    private let onStatistics: @Sendable (FeedListener.Statistics) -> Void

    init(
        keptDisconnected: Int, maximumConnections: Int = .max, partialLineBudget: Int = .max,
        onStatus: @escaping @Sendable (ProducerStatus) -> Void,
        onStatistics: @escaping @Sendable (FeedListener.Statistics) -> Void = { _ in }
    ) {
        self.keptDisconnected = keptDisconnected
        self.maximumConnections = maximumConnections
        self.partialLineBudget = partialLineBudget
        self.onStatus = onStatus
        self.onStatistics = onStatistics
    }

    /// What the listener refused or cut off so far.
    var statistics: FeedListener.Statistics { state.withLock { $0.statistics } }

    /// Registers a new connection; `nil` when the listener is shutting down or already holds its maximum of
    /// connections (counted as refused); the caller closes it.
    func connect(channel: any Channel, peer: String) -> ProducerStatus? {
        var refused: FeedListener.Statistics?
        let status: ProducerStatus? = state.withLock { state in
            guard !state.shuttingDown else { return nil }
            guard state.channels.count < maximumConnections else {
                state.statistics.refusedConnections += 1
                refused = state.statistics
                return nil
            }
            let id = ProducerID(state.nextID)
            state.nextID += 1
            let status = ProducerStatus(id: id, peer: peer, connectedAt: Date())
            state.connected[id] = status
            state.channels[id] = channel
            return status
        }
        if let status { onStatus(status) }
        if let refused { onStatistics(refused) }
        return status
    }

    /// Records how many bytes of an unfinished line `id` holds now. When the sum over all connections is over
    /// the budget, returns the connection holding the largest (to be closed) and how much it holds.
    func holdPartialLine(_ id: ProducerID, bytes: Int) -> (victim: any Channel, bytes: Int)? {
        state.withLock { state in
            let previous = state.partial[id] ?? 0
            guard previous != bytes else { return nil }
            state.partialTotal += bytes - previous
            state.partial[id] = bytes == 0 ? nil : bytes
            guard state.partialTotal > partialLineBudget,
                let largest = state.partial.max(by: { $0.value < $1.value }), let channel = state.channels[largest.key]
            else { return nil }
            // Counted now, so the same connection is not chosen twice while it closes.
            state.partialTotal -= largest.value
            state.partial[largest.key] = nil
            state.statistics.closedForPartialLines += 1
            return (channel, largest.value)
        }
    }

    /// Counts a connection closed for stalling mid-line.
    func countStalled() {
        let statistics = state.withLock { state in
            state.statistics.closedStalledMidLine += 1
            return state.statistics
        }
        onStatistics(statistics)
    }

    /// Tells the listener's owner the statistics changed (after a close for the partial-line budget).
    func publishStatistics() { onStatistics(statistics) }

    /// Stores a handler's current view of its producer; tells `onStatus` when `notify` is set.
    func update(_ status: ProducerStatus, notify: Bool) {
        state.withLock { state in
            guard !status.isConnected else {
                state.connected[status.id] = status
                return
            }
            state.connected[status.id] = nil
            state.channels[status.id] = nil
            if let held = state.partial.removeValue(forKey: status.id) { state.partialTotal -= held }
            state.disconnected[status.id] = status
            while state.disconnected.count > keptDisconnected { state.disconnected.removeFirst() }
        }
        if notify { onStatus(status) }
    }

    /// Every producer known, connected or recently disconnected, in connection order.
    var snapshot: [ProducerStatus] {
        state.withLock { Array($0.connected.values) + Array($0.disconnected.values) }.sorted { $0.id < $1.id }
    }

    /// Refuses new connections and returns the open ones, to be closed by the caller.
    func beginShutdown() -> [any Channel] {
        state.withLock { state in
            state.shuttingDown = true
            return Array(state.channels.values)
        }
    }
}
