import NIOCore
import Synchronization

/// The receiver's ``ConnectionTable`` under a lock: connections are closed after it is released.
final class ConnectionSlots: Sendable {
    private let table: Mutex<ConnectionTable>

    init(capacity: Int, bodyBudget: Int) {
        table = Mutex(ConnectionTable(capacity: capacity, bodyBudget: bodyBudget))
    }

    /// Keeps `channel` (evicting the oldest holder when every slot is taken); `false` when it must be closed.
    func admit(_ channel: any Channel) -> Bool {
        switch table.withLock({ $0.admit(channel) }) {
        case .admitted:
            return true
        case .admittedEvicting(let victim):
            victim.close(promise: nil)
            return true
        case .refused:
            return false
        }
    }

    /// What `channel` holds its slot for now.
    func hold(_ channel: any Channel, _ holding: ConnectionTable.Holding) {
        table.withLock { $0.hold(ObjectIdentifier(channel), holding) }
    }

    func remove(_ channel: any Channel) { table.withLock { $0.remove(ObjectIdentifier(channel)) } }

    /// Reserves `bytes` more of body for a body of `total` bytes.
    func reserve(_ bytes: Int, forBodyOf total: Int) -> ConnectionTable.Reservation {
        table.withLock { $0.reserve(bytes, forBodyOf: total) }
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        table.withLock { $0.release(bytes) }
    }

    func countTimedOut() { table.withLock { $0.countTimedOut() } }

    var count: Int { table.withLock { $0.count } }

    var all: [any Channel] { table.withLock { $0.channels } }

    /// Body bytes held now.
    var bodyBytes: Int { table.withLock { $0.bodyBytes } }

    var statistics: HTTPReceiverStatistics { table.withLock { $0.statistics } }
}
