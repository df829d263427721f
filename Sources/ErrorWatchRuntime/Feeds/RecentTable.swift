import OrderedCollections

/// A table of at most ``capacity`` values that forgets its oldest entries as new keys arrive, instead of growing
/// without bound or being cleared all at once (which would drop what is in use with what is not).
///
/// Entries are kept in the order their keys were first stored (an `OrderedDictionary`). When a new key would pass
/// the capacity, the oldest eighth goes in one step, so eviction costs O(1) amortised per insertion and a lookup
/// stays one hash probe: the tables here sit on paths that run for every event.
///
/// ```swift
/// var names = RecentTable<ProducerID, String>(capacity: 4_096)
/// let name = names.value(for: producer) { "socket \(producer)" }
/// ```
struct RecentTable<Key: Hashable, Value> {
    /// The most entries held.
    let capacity: Int
    private var entries: OrderedDictionary<Key, Value> = [:]

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    /// The value stored for `key`; setting one for a new key may evict the oldest entries.
    subscript(key: Key) -> Value? {
        get { entries[key] }
        set {
            guard let newValue else {
                entries.removeValue(forKey: key)
                return
            }
            if entries.updateValue(newValue, forKey: key) == nil, entries.count > capacity {
                entries.removeFirst(Swift.max(1, capacity / 8))
            }
        }
    }

    /// The value stored for `key`, made by `make` and stored when there is none.
    mutating func value(for key: Key, orMake make: () -> Value) -> Value {
        if let known = entries[key] { return known }
        let made = make()
        self[key] = made
        return made
    }
}

extension RecentTable: Sendable where Key: Sendable, Value: Sendable {}
