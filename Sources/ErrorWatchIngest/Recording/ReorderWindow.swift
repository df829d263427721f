import ErrorWatchWire
import Foundation
import HeapModule

/// Puts items that arrive slightly out of time order back in order while holding at most ``capacity`` of them: the
/// reorder window of a recording, whose lines interleave several producers' clocks.
///
/// Items go in with their time; once the window is full, each new one lets the earliest out (a min-heap, so
/// `O(log capacity)` per item). Equal times leave in arrival order. An item earlier than one already let out is
/// *late*: it cannot be put back in order, so it leaves next, at the time of the last one let out (late items
/// among themselves keep their arrival order), and is counted in ``lateCount``.
///
/// Why a count and not a span of time: memory stays bounded whatever the timestamps (a burst of a million events
/// in one second fits a time window), and a file's lines are out of order by at most a few producers' buffers.
///
/// ```swift
/// var window = ReorderWindow<String>(capacity: 2)
/// window.insert("b", at: Date(timeIntervalSince1970: 2))
/// window.insert("a", at: Date(timeIntervalSince1970: 1))
/// window.removeFirst()?.item   // "a"
/// ```
public struct ReorderWindow<Item> {
    struct Pending: Comparable {
        var time: Date
        var arrival: UInt64
        var item: Item

        static func < (lhs: Pending, rhs: Pending) -> Bool { (lhs.time, lhs.arrival) < (rhs.time, rhs.arrival) }
        static func == (lhs: Pending, rhs: Pending) -> Bool { lhs.time == rhs.time && lhs.arrival == rhs.arrival }
    }

    /// The most items held.
    public let capacity: Int
    private var heap = Heap<Pending>()
    private var arrivals: UInt64 = 0
    /// The time of the last item let out; later arrivals before it are late.
    public private(set) var watermark: Date?
    /// Items that arrived after a later one had left, and were let out at the watermark instead of their own time.
    public private(set) var lateCount = 0

    /// An empty window holding at most `capacity` items (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The items held.
    public var count: Int { heap.count }

    /// Whether the window holds ``capacity`` items, so the earliest must leave before another comes in.
    public var isFull: Bool { heap.count >= capacity }

    /// Adds `item`, which happened at `time`. A late one is held at the ``watermark`` instead.
    public mutating func insert(_ item: Item, at time: Date) {
        var time = time
        if let watermark, time < watermark {
            time = watermark
            lateCount += 1
        }
        heap.insert(Pending(time: time, arrival: arrivals, item: item))
        arrivals += 1
    }

    /// Lets the earliest item out, with the time it plays at (its own, or the watermark for a late one).
    public mutating func removeFirst() -> (item: Item, time: Date)? {
        guard let first = heap.popMin() else { return nil }
        watermark = first.time
        return (first.item, first.time)
    }
}

extension ReorderWindow: Sendable where Item: Sendable {}
extension ReorderWindow.Pending: Sendable where Item: Sendable {}
