import ErrorWatchWire
import OrderedCollections
import Synchronization

/// Which local stream event each producer's error became, so the producer's later `handling` line (how its handler
/// tree dealt with the error) joins the right event. The most recent ``capacity`` are remembered.
final class HandlingJoins: Sendable {
    /// A producer's sequence number, made unique by where it came from (the connection or file), its service,
    /// host and process, so replicas that share a service name and a pid never mix.
    struct Key: Hashable {
        var from: String?
        var service: String?
        var host: String?
        var pid: Int?
        var sequence: UInt64

        init(_ event: WireEvent, sequence: UInt64, from: String?) {
            (self.from, service, host, pid, self.sequence) =
                (from, event.serviceName, event.hostName, event.pid, sequence)
        }
    }

    /// How many producer sequence numbers are remembered.
    let capacity: Int
    private let joins = Mutex<OrderedDictionary<Key, UInt64>>([:])

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// Remembers that the producer's `key` became the local event `local`, forgetting the oldest past capacity.
    func remember(_ key: Key, as local: UInt64) {
        joins.withLock { joins in
            joins[key] = local
            if joins.count > capacity { joins.removeFirst(joins.count - capacity) }
        }
    }

    /// The local event the producer's `key` became, if still remembered.
    func local(for key: Key) -> UInt64? { joins.withLock { $0[key] } }
}
