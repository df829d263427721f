extension ErrorStream {
    /// An iterator's position in its listener's batches: the shared core of the three iterators.
    ///
    /// The fast path (the next event of the batch in hand) is inlinable and never suspends, so a `for await` loop
    /// over a full batch costs a slot read per element, with no lock, no task switch and no async frame. Only an
    /// exhausted batch calls into ``ErrorStream/nextBatch(_:dropped:isolation:)``.
    @usableFromInline
    struct Cursor {
        @usableFromInline var lease: Lease?
        /// The batch being read, outside the lock: sequences `position..<end` of `segment`.
        @usableFromInline var segment: LogSegment?
        @usableFromInline var position: UInt64 = 0
        @usableFromInline var end: UInt64 = 0
        /// Events the listener's buffering policy has dropped so far.
        @usableFromInline var dropped: UInt64 = 0

        init(lease: Lease) { self.lease = lease }

        /// The segment holding the next unread event, advancing past it; `nil` when the batch is used up.
        @inlinable @inline(__always)
        mutating func nextSlot() -> (segment: LogSegment, sequence: UInt64)? {
            guard position < end, let segment else { return nil }
            defer { position += 1 }
            return (segment, position)
        }

        /// Waits for the listener's next batch; `false` once the listener has ended (and forever after).
        @usableFromInline
        mutating func refill(isolation actor: isolated (any Actor)?) async -> Bool {
            guard let lease, let id = lease.id else { return false }
            segment = nil
            guard let batch = await lease.stream.nextBatch(id, dropped: &dropped, isolation: actor) else {
                self.lease = nil  // unregisters now, even if the iterator itself lives on
                return false
            }
            segment = batch.segment
            position = batch.lower
            end = batch.upper
            return true
        }

        /// The next slot, waiting for a batch if needed; `nil` once the listener has ended.
        @inlinable
        mutating func next(isolation actor: isolated (any Actor)?) async -> (segment: LogSegment, sequence: UInt64)? {
            if let slot = nextSlot() { return slot }
            guard await refill(isolation: actor) else { return nil }
            return nextSlot()
        }
    }
}
