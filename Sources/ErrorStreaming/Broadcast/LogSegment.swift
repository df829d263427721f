/// A fixed-capacity block of the shared log: events with consecutive sequence numbers from `base`.
///
/// Producers append under the stream's lock; listeners read published slots *outside* the lock, so a listener
/// copies its events while producers and other listeners carry on. Segments are freed by ARC once the log has
/// trimmed them and no iterator still holds one.
///
/// ## Why `@unchecked Sendable` is safe here
///
/// The only mutable state is the slot memory and `count`.
/// - `append` (which initialises slot `count` and increments `count`) is only called by ``BroadcastLog`` while
///   the stream's `Mutex` is held, so appends never race with each other or with reads of `count`.
/// - `count` is otherwise only read under that lock (``BroadcastLog`` hands out ranges below it) and in `deinit`.
/// - A slot, once initialised, is never written again until `deinit`. A listener reads slot `i` only after it
///   learned, under the lock, that `i < count`; the lock release/acquire orders the producer's write before the
///   read. Concurrent reads of an immutable slot are not a data race.
/// - `deinit` runs after the last reference is released; ARC's release/acquire ordering makes every earlier
///   write visible to it, and no reader can exist any more.
@usableFromInline
final class LogSegment: @unchecked Sendable {
    /// The sequence number of slot 0.
    @usableFromInline let base: UInt64
    let capacity: Int
    @usableFromInline let slots: UnsafeMutablePointer<ErrorEvent>
    /// Initialised slots. Read and written only under the stream's lock (and in `deinit`).
    private(set) var count = 0

    init(base: UInt64, capacity: Int) {
        precondition(capacity > 0, "a segment holds at least one event")
        self.base = base
        self.capacity = capacity
        self.slots = .allocate(capacity: capacity)
    }

    /// A standalone segment holding a copy of `events`, numbered from `base`.
    convenience init(base: UInt64, copying events: some Collection<ErrorEvent>) {
        self.init(base: base, capacity: max(1, events.count))
        for event in events { append(event) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The sequence number after the last initialised slot. Under the lock only.
    var end: UInt64 { base + UInt64(count) }
    var isFull: Bool { count == capacity }

    /// Initialises the next slot. Under the lock only, and only while `!isFull`.
    func append(_ event: ErrorEvent) {
        precondition(count < capacity, "append to a full segment")
        (slots + count).initialize(to: event)
        count += 1
    }

    /// The event with this sequence number; it must have been published (below `end`, learned under the lock).
    @inlinable
    subscript(sequence: UInt64) -> ErrorEvent {
        slots[Int(truncatingIfNeeded: sequence &- base)]
    }

    /// Only the error of the event with this sequence number (a cheaper read than the whole event).
    @inlinable
    func error(at sequence: UInt64) -> any Error {
        slots[Int(truncatingIfNeeded: sequence &- base)].error
    }
}
