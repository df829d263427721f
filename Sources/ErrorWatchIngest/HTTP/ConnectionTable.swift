import NIOCore

/// The receiver's connection slots and body budget as a pure state machine (our `BroadcastLog` pattern): its events
/// return what to do, and ``ConnectionSlots`` does it after releasing its lock.
///
/// **Fair slots.** Each connection says what it holds: an unfinished request (from its first byte, or from the
/// connection's opening, until its answer is flushed), a request being decoded, or nothing (kept alive between
/// requests). When every slot is taken, a new connection evicts the one that has held an unfinished request the
/// longest, else the one idle the longest; only when every connection is decoding is the new one refused. So
/// connections that trickle their requests cannot keep a client that sends promptly out: each newcomer displaces
/// the oldest trickler, and a prompt request is done long before it becomes the oldest.
///
/// **Bodies.** The bytes of request bodies held across connections stay within a budget: a body is reserved before
/// it is buffered and released once its request is answered or its connection closes.
struct ConnectionTable {
    /// What a connection holds its slot for; `since` orders connections by age (a counter, not a clock).
    enum Holding: Equatable {
        /// A request started (or the connection opened) and is not answered yet: evictable, oldest first.
        case unfinished(since: UInt64)
        /// A complete request being decoded and delivered: not evictable.
        case busy
        /// Kept alive between requests: evictable when no connection holds an unfinished request.
        case idle(since: UInt64)
    }

    /// What to do after ``admit(_:)``.
    enum Admission {
        /// Keep the new connection.
        case admitted
        /// Keep the new connection and close this one, evicted to make room.
        case admittedEvicting(any Channel)
        /// Close the new connection: every slot is busy decoding.
        case refused
    }

    private struct Slot {
        var channel: any Channel
        var holding: Holding
    }

    /// Connections open at once.
    let capacity: Int
    /// Bytes of bodies held at once, across connections.
    let bodyBudget: Int
    private var slots: [ObjectIdentifier: Slot] = [:]
    private var tick: UInt64 = 0
    /// Body bytes reserved now.
    private(set) var bodyBytes = 0
    /// What the table had to do so far.
    private(set) var statistics = HTTPReceiverStatistics()

    init(capacity: Int, bodyBudget: Int) {
        self.capacity = capacity
        self.bodyBudget = bodyBudget
    }

    /// Connections open now.
    var count: Int { slots.count }

    /// Every open connection.
    var channels: [any Channel] { slots.values.map(\.channel) }

    /// A new connection: kept (it holds an unfinished request from now), evicting the oldest holder when full.
    /// Finding the holder is a scan of the slots: O(capacity) per connection admitted while full, bounded.
    mutating func admit(_ channel: any Channel) -> Admission {
        var victim: (id: ObjectIdentifier, slot: Slot)?
        if slots.count >= capacity {
            var best: (rank: Int, since: UInt64)?
            for (id, slot) in slots {
                let rank: (Int, UInt64)
                switch slot.holding {
                case .unfinished(let since): rank = (0, since)
                case .idle(let since): rank = (1, since)
                case .busy: continue
                }
                if best.map({ rank < $0 }) ?? true {
                    best = rank
                    victim = (id, slot)
                }
            }
            guard let victim else {
                statistics.refusedConnections += 1
                return .refused
            }
            slots[victim.id] = nil
            statistics.evictedConnections += 1
        }
        tick += 1
        slots[ObjectIdentifier(channel)] = Slot(channel: channel, holding: .unfinished(since: tick))
        return victim.map { .admittedEvicting($0.slot.channel) } ?? .admitted
    }

    /// A connection's new holding; `.unfinished` and `.idle` take the current age. Unknown (evicted) ones are ignored.
    mutating func hold(_ id: ObjectIdentifier, _ holding: Holding) {
        guard slots[id] != nil else { return }
        tick += 1
        switch holding {
        case .unfinished: slots[id]?.holding = .unfinished(since: tick)
        case .idle: slots[id]?.holding = .idle(since: tick)
        case .busy: slots[id]?.holding = .busy
        }
    }

    /// A connection closed.
    mutating func remove(_ id: ObjectIdentifier) { slots[id] = nil }

    /// What reserving `bytes` more of body became.
    enum Reservation: Equatable {
        case reserved
        /// Over the budget now: answer 503 and let the client retry.
        case overBudget
        /// Larger than the whole budget: answer 413.
        case tooLarge
    }

    /// Reserves `bytes` more for a body that grows to `total` bytes.
    mutating func reserve(_ bytes: Int, forBodyOf total: Int) -> Reservation {
        guard total <= bodyBudget else {
            statistics.overBodyBudget += 1
            return .tooLarge
        }
        guard bodyBytes + bytes <= bodyBudget else {
            statistics.overBodyBudget += 1
            return .overBudget
        }
        bodyBytes += bytes
        return .reserved
    }

    /// Gives back `bytes` reserved.
    mutating func release(_ bytes: Int) {
        bodyBytes -= bytes
        assert(bodyBytes >= 0, "released more body bytes than were reserved")
    }

    /// Counts a connection closed because its request (or the reading of its answer) missed the deadline.
    mutating func countTimedOut() { statistics.timedOutRequests += 1 }
}
