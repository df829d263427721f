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
        /// When each connection's unfinished line began (its first byte), oldest first: who goes when the slots
        /// are full.
        var lineStarts: OrderedDictionary<ProducerID, NIODeadline> = [:]
        /// Whether the listener accepts new connections; off while every slot is taken and nobody can be evicted,
        /// so newcomers wait in the kernel's backlog instead of being accepted and closed with their lines unread.
        var accepting = true
    }

    /// What a new connection's arrival asks of the listener.
    struct Arrival {
        /// The new producer; `nil` while shutting down (the caller closes the connection).
        var status: ProducerStatus?
        /// A connection to close to make room: every slot was taken and it held an unfinished line the longest.
        var evicted: (channel: any Channel, heldSeconds: Int)?
        /// Whether the listener stopped accepting with this arrival (every slot taken, nobody to evict).
        var paused = false
    }

    private let state = Mutex(State())
    private let keptDisconnected: Int
    private let maximumConnections: Int
    private let partialLineBudget: Int
    private let onStatus: @Sendable (ProducerStatus) -> Void
    private let onStatistics: @Sendable (FeedListener.Statistics) -> Void
    /// How long a connection must have held its unfinished line before it may be evicted for a newcomer.
    let evictionGrace: TimeAmount
    /// Applies ``accepting`` to the listening socket (set once the listener is bound).
    private let acceptance = Mutex<(@Sendable (Bool) -> Void)?>(nil)

    init(
        keptDisconnected: Int, maximumConnections: Int = .max, partialLineBudget: Int = .max,
        evictionGrace: TimeAmount = .seconds(1),
        onStatus: @escaping @Sendable (ProducerStatus) -> Void,
        onStatistics: @escaping @Sendable (FeedListener.Statistics) -> Void = { _ in }
    ) {
        self.keptDisconnected = keptDisconnected
        self.maximumConnections = maximumConnections
        self.partialLineBudget = partialLineBudget
        self.evictionGrace = evictionGrace
        self.onStatus = onStatus
        self.onStatistics = onStatistics
    }

    /// What the listener refused or cut off so far.
    var statistics: FeedListener.Statistics { state.withLock { $0.statistics } }

    /// Registers a new connection. When that takes the last slot, the connection that has held an unfinished line
    /// the longest (for at least ``evictionGrace``) is named to be closed; when nobody can be, accepting stops until
    /// a slot frees (``accepting``). Never refuses a connection it has accepted: its lines are read.
    func connect(channel: any Channel, peer: String, now: NIODeadline = .now()) -> Arrival {
        var arrival = Arrival()
        var statistics: FeedListener.Statistics?
        state.withLock { state in
            guard !state.shuttingDown else { return }
            let id = ProducerID(state.nextID)
            state.nextID += 1
            let status = ProducerStatus(id: id, peer: peer, connectedAt: Date())
            state.connected[id] = status
            state.channels[id] = channel
            arrival.status = status
            guard state.channels.count >= maximumConnections else { return }
            if let victim = Self.stalest(in: &state, now: now, grace: evictionGrace) {
                arrival.evicted = victim
                state.statistics.evictedConnections += 1
                statistics = state.statistics
            } else if state.accepting {
                state.accepting = false
                state.statistics.acceptPauses += 1
                arrival.paused = true
                statistics = state.statistics
            }
        }
        if let status = arrival.status { onStatus(status) }
        if let statistics { onStatistics(statistics) }
        if arrival.paused { applyAcceptance() }
        return arrival
    }

    /// While accepting is paused: names the connection that has held an unfinished line the longest, for at least
    /// ``evictionGrace``, to be closed so a waiting newcomer gets its slot; `nil` when none has (yet).
    func evictForWaiting(now: NIODeadline = .now()) -> (channel: any Channel, heldSeconds: Int)? {
        let (victim, statistics): ((channel: any Channel, heldSeconds: Int)?, FeedListener.Statistics?) =
            state.withLock { state in
                guard !state.accepting, !state.shuttingDown,
                    let victim = Self.stalest(in: &state, now: now, grace: evictionGrace)
                else { return (nil, nil) }
                state.statistics.evictedConnections += 1
                return (victim, state.statistics)
            }
        if let statistics { onStatistics(statistics) }
        return victim
    }

    /// Whether the listener accepts new connections now.
    var accepting: Bool { state.withLock { $0.accepting } }

    /// How the listener turns accepting on and off; called on any thread with the state to apply.
    func setAcceptance(_ apply: @escaping @Sendable (Bool) -> Void) {
        acceptance.withLock { $0 = apply }
    }

    /// Applies the current ``accepting`` (the latest state, whichever call comes last).
    private func applyAcceptance() {
        guard let apply = acceptance.withLock({ $0 }) else { return }
        apply(accepting)
    }

    /// The holder of the oldest unfinished line, if it began at least `grace` ago; forgotten as a holder so it is
    /// not chosen twice while it closes.
    private static func stalest(
        in state: inout State, now: NIODeadline, grace: TimeAmount
    ) -> (channel: any Channel, heldSeconds: Int)? {
        guard let (id, started) = state.lineStarts.elements.first, now - started >= grace,
            let channel = state.channels[id]
        else { return nil }
        state.lineStarts.removeValue(forKey: id)
        if let held = state.partial.removeValue(forKey: id) { state.partialTotal -= held }
        return (channel, Int((now - started).nanoseconds / 1_000_000_000))
    }

    /// Records how many bytes of an unfinished line `id` holds now and, when `lineChanged`, when that line began
    /// (`nil`: none). When the sum over all connections is over the budget, returns the connection holding the
    /// largest (to be closed) and how much it holds.
    func holdPartialLine(
        _ id: ProducerID, bytes: Int, startedAt: NIODeadline?, lineChanged: Bool
    ) -> (victim: any Channel, bytes: Int)? {
        state.withLock { state in
            if lineChanged {
                // Starts only grow, so appending the newest keeps the oldest first.
                state.lineStarts.removeValue(forKey: id)
                if let startedAt { state.lineStarts[id] = startedAt }
            }
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
            state.lineStarts.removeValue(forKey: largest.key)
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
        var resume = false
        state.withLock { state in
            guard !status.isConnected else {
                state.connected[status.id] = status
                return
            }
            state.connected[status.id] = nil
            state.channels[status.id] = nil
            if let held = state.partial.removeValue(forKey: status.id) { state.partialTotal -= held }
            state.lineStarts.removeValue(forKey: status.id)
            state.disconnected[status.id] = status
            while state.disconnected.count > keptDisconnected { state.disconnected.removeFirst() }
            if !state.accepting, state.channels.count < maximumConnections {
                state.accepting = true
                resume = true
            }
        }
        if notify { onStatus(status) }
        if resume { applyAcceptance() }
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
