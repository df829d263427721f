import HeapModule

/// Counts by name in bounded memory: the names with the largest counts (at most ``capacity``) exactly, and
/// everything else together, exactly, as ``other``. Adding costs O(log capacity), whatever the number of names.
///
/// A name first counted when the table is full waits in a second table of candidates, of the same size, with its
/// own exact count; once that count passes the smallest in the table, the two change places (the one leaving keeps
/// its count, as a candidate). A candidate pushed out by newer ones adds its count to ``other``, so a stream of
/// names seen once never displaces the names that matter, and ``total`` = the table's counts + ``other`` always.
///
/// ```swift
/// var counts = TopKCounts<String>(capacity: 2)
/// for name in ["a", "a", "b", "c", "c", "c"] { counts.add(name) }
/// counts.top    // [("c", 3)… the two largest], counts.other: what is not listed
/// ```
struct TopKCounts<Name: Hashable>: Sendable where Name: Sendable {
    /// One counted name; `order` is when it was first listed, for a stable numbering.
    struct Entry: Sendable {
        var name: Name
        var count: Int
        var order: UInt64
    }

    /// The most names listed (and the most candidates held).
    let capacity: Int
    private var table: IndexedMinHeap<Name>
    private var candidates: IndexedMinHeap<Name>
    /// Errors counted for no listed name: candidates pushed out, and what candidates still hold.
    private var evicted = 0
    private var nextOrder: UInt64 = 0
    /// Everything counted.
    private(set) var total = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        table = IndexedMinHeap()
        candidates = IndexedMinHeap()
    }

    /// Everything not in ``top``: candidates' counts and those of names pushed out.
    var other: Int { evicted + candidates.sum }

    /// The names listed, in the order they were first listed.
    var top: [Entry] { table.entries.sorted { $0.order < $1.order } }

    /// Counts `name` `count` times.
    mutating func add(_ name: Name, count: Int = 1) {
        total += count
        if table.increase(name, by: count) { return }
        if table.count < capacity {
            table.insert(Entry(name: name, count: count, order: nextOrder))
            nextOrder += 1
            return
        }
        if !candidates.increase(name, by: count) {
            if candidates.count >= capacity, let pushed = candidates.popMin() { evicted += pushed.count }
            candidates.insert(Entry(name: name, count: count, order: 0))
        }
        // A candidate that has passed the table's smallest takes its place.
        guard let candidate = candidates.entry(name), let smallest = table.min, candidate.count > smallest.count
        else { return }
        candidates.remove(name)
        table.popMin()
        table.insert(Entry(name: candidate.name, count: candidate.count, order: nextOrder))
        nextOrder += 1
        if candidates.count >= capacity, let pushed = candidates.popMin() { evicted += pushed.count }
        candidates.insert(Entry(name: smallest.name, count: smallest.count, order: 0))
    }
}

/// Counted names, smallest count first: a dictionary holds each name's count, and a swift-collections `Heap` of
/// (count, serial) keys finds the smallest. Raising a count pushes a fresh key and leaves the old one stale (its
/// serial no longer the name's); stale keys are dropped when they reach the top, and the heap is rebuilt from the
/// dictionary when they outnumber the live ones, so memory stays O(names) and every operation amortised O(log n).
struct IndexedMinHeap<Name: Hashable>: Sendable where Name: Sendable {
    typealias Entry = TopKCounts<Name>.Entry

    /// A heap key: the count it was pushed with and a serial unique to the push (a total order for `Heap`).
    private struct Key: Comparable, Sendable {
        var count: Int
        var serial: UInt64
        var name: Name
        static func < (a: Key, b: Key) -> Bool { (a.count, a.serial) < (b.count, b.serial) }
        static func == (a: Key, b: Key) -> Bool { a.serial == b.serial }
    }

    private var held: [Name: (entry: Entry, serial: UInt64)] = [:]
    private var heap = Heap<Key>()
    private var nextSerial: UInt64 = 0
    /// The sum of the counts held.
    private(set) var sum = 0

    var count: Int { held.count }
    var entries: [Entry] { held.values.map(\.entry) }

    /// The entry with the smallest count (the earliest pushed among equals).
    var min: Entry? {
        mutating get {
            while let top = heap.min {
                if let live = held[top.name], live.serial == top.serial { return live.entry }
                heap.removeMin()
            }
            return nil
        }
    }

    func entry(_ name: Name) -> Entry? { held[name]?.entry }

    /// Raises `name`'s count; `false` when the heap does not hold it.
    mutating func increase(_ name: Name, by amount: Int) -> Bool {
        guard var entry = held[name]?.entry else { return false }
        entry.count += amount
        sum += amount
        push(entry)
        return true
    }

    mutating func insert(_ entry: Entry) {
        sum += entry.count
        push(entry)
    }

    @discardableResult
    mutating func popMin() -> Entry? {
        guard let first = min else { return nil }
        remove(first.name)
        return first
    }

    mutating func remove(_ name: Name) {
        if let gone = held.removeValue(forKey: name) { sum -= gone.entry.count }
    }

    private mutating func push(_ entry: Entry) {
        held[entry.name] = (entry, nextSerial)
        heap.insert(Key(count: entry.count, serial: nextSerial, name: entry.name))
        nextSerial += 1
        if heap.count > 2 * held.count + 16 {
            heap = Heap(held.map { Key(count: $0.value.entry.count, serial: $0.value.serial, name: $0.key) })
        }
    }
}
