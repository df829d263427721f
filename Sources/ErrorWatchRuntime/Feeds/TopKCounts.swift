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

/// A min-heap of counted names with an index, so a name's count can be raised in O(log n).
struct IndexedMinHeap<Name: Hashable>: Sendable where Name: Sendable {
    typealias Entry = TopKCounts<Name>.Entry
    private(set) var entries: [Entry] = []
    private var positions: [Name: Int] = [:]
    /// The sum of the counts held.
    private(set) var sum = 0

    var count: Int { entries.count }
    var min: Entry? { entries.first }

    func entry(_ name: Name) -> Entry? { positions[name].map { entries[$0] } }

    /// Raises `name`'s count; `false` when the heap does not hold it.
    mutating func increase(_ name: Name, by amount: Int) -> Bool {
        guard let position = positions[name] else { return false }
        entries[position].count += amount
        sum += amount
        siftDown(position)
        return true
    }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        positions[entry.name] = entries.count - 1
        sum += entry.count
        siftUp(entries.count - 1)
    }

    @discardableResult
    mutating func popMin() -> Entry? {
        guard let first = entries.first else { return nil }
        remove(at: 0)
        return first
    }

    mutating func remove(_ name: Name) {
        if let position = positions[name] { remove(at: position) }
    }

    private mutating func remove(at position: Int) {
        let removed = entries[position]
        sum -= removed.count
        positions[removed.name] = nil
        let last = entries.removeLast()
        guard position < entries.count else { return }
        entries[position] = last
        positions[last.name] = position
        siftDown(position)
        siftUp(position)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].count < entries[parent].count else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].count < entries[smallest].count { smallest = left }
            if right < entries.count, entries[right].count < entries[smallest].count { smallest = right }
            guard smallest != parent else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        positions[entries[a].name] = a
        positions[entries[b].name] = b
    }
}
