import Foundation
import NIOCore
import Synchronization

/// The listener's table of producers, shared by every connection handler and read by the app.
///
/// Handlers flush their counters once per read burst (`channelReadComplete`), not once per event, so the lock
/// is taken a few times per socket read, whatever the event rate. Status callbacks run after unlocking.
final class ProducerRegistry: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        var statuses: [ProducerID: ProducerStatus] = [:]
        var channels: [ProducerID: any Channel] = [:]
        var disconnectedOrder: [ProducerID] = []
        var shuttingDown = false
    }

    private let state = Mutex(State())
    private let keptDisconnected: Int
    private let onStatus: @Sendable (ProducerStatus) -> Void

    init(keptDisconnected: Int, onStatus: @escaping @Sendable (ProducerStatus) -> Void) {
        self.keptDisconnected = keptDisconnected
        self.onStatus = onStatus
    }

    /// Registers a new connection; `nil` when the listener is shutting down (the caller closes it).
    func connect(channel: any Channel, peer: String) -> ProducerStatus? {
        let status: ProducerStatus? = state.withLock { state in
            guard !state.shuttingDown else { return nil }
            let id = ProducerID(state.nextID)
            state.nextID += 1
            let status = ProducerStatus(id: id, peer: peer, connectedAt: Date())
            state.statuses[id] = status
            state.channels[id] = channel
            return status
        }
        if let status { onStatus(status) }
        return status
    }

    /// Stores a handler's current view of its producer; tells `onStatus` when `notify` is set.
    func update(_ status: ProducerStatus, notify: Bool) {
        state.withLock { state in
            state.statuses[status.id] = status
            if !status.isConnected {
                state.channels[status.id] = nil
                state.disconnectedOrder.append(status.id)
                while state.disconnectedOrder.count > keptDisconnected {
                    state.statuses[state.disconnectedOrder.removeFirst()] = nil
                }
            }
        }
        if notify { onStatus(status) }
    }

    /// Every producer known, connected or recently disconnected, in connection order.
    var snapshot: [ProducerStatus] {
        state.withLock { Array($0.statuses.values) }.sorted { $0.id < $1.id }
    }

    /// Refuses new connections and returns the open ones, to be closed by the caller.
    func beginShutdown() -> [any Channel] {
        state.withLock { state in
            state.shuttingDown = true
            return Array(state.channels.values)
        }
    }
}
