extension ErrorStream {
    /// Every event added after this value was created (plus up to `replay` earlier ones), in stream order.
    ///
    /// ```swift
    /// for await event in stream.events {
    ///     print(event.sequence, event.source, event.error)
    /// }
    /// ```
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = ErrorEvent
        public typealias Failure = Never

        let registration: Registration

        /// The sequence number of the first event this value's first iterator can deliver: every event numbered
        /// below it was added before this value was created (and lies outside its replay).
        ///
        /// For joining another feed of the same stream to this one, as `ErrorForwarder` does with the handling
        /// reports: a report about an event below `firstSequence` will never find its event here.
        package var firstSequence: UInt64 { registration.firstSequence }

        /// Reads the listener's events in batches: one lock acquisition takes everything available.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = ErrorEvent
            public typealias Failure = Never

            @usableFromInline var cursor: Cursor

            init(lease: Lease) { self.cursor = Cursor(lease: lease) }

            /// Events this iterator's buffering policy has dropped so far (the gaps in `sequence` it has seen).
            public var droppedCount: UInt64 { cursor.dropped }

            /// Events already taken from the stream that ``next(isolation:)`` returns without waiting.
            ///
            /// A consumer that pays per wake-up (a socket write, a redraw) can use it to act once per batch: when it
            /// reaches 0, the batch in hand is done.
            public var bufferedCount: Int {
                guard cursor.segment != nil, cursor.end > cursor.position else { return 0 }
                return Int(cursor.end - cursor.position)
            }

            /// The next event, or `nil` once the stream is finished and drained or the task is cancelled.
            @inlinable
            public mutating func next(isolation actor: isolated (any Actor)?) async -> ErrorEvent? {
                guard let slot = await cursor.next(isolation: actor) else { return nil }
                return slot.segment[slot.sequence]
            }

            /// The next event, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next() async -> ErrorEvent? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(lease: registration.claim()) }
    }

    /// Every error added after this value was created (plus up to `replay` earlier ones).
    ///
    /// ```swift
    /// for await error in stream.updates where error is DisplayError { show(error) }
    /// ```
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = any Error
        public typealias Failure = Never

        let events: Events

        /// Yields the `error` of each event.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = any Error
            public typealias Failure = Never

            @usableFromInline var cursor: Cursor

            /// Events this iterator's buffering policy has dropped so far.
            public var droppedCount: UInt64 { cursor.dropped }

            /// The next error, or `nil` once the stream is finished and drained or the task is cancelled.
            @inlinable
            public mutating func next(isolation actor: isolated (any Actor)?) async -> (any Error)? {
                guard let slot = await cursor.next(isolation: actor) else { return nil }
                return slot.segment.error(at: slot.sequence)
            }

            /// The next error, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next() async -> (any Error)? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(cursor: events.makeAsyncIterator().cursor) }
    }

    /// Only the errors of type `T`, typed as `T`.
    ///
    /// ```swift
    /// for await failure in stream.updates(of: LoginError.self) { handle(failure) }
    /// ```
    public struct TypedUpdates<T: Error>: AsyncSequence, Sendable {
        public typealias Element = T
        public typealias Failure = Never

        let events: Events

        /// Skips errors of other types.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = T
            public typealias Failure = Never

            @usableFromInline var cursor: Cursor

            /// Events (of any type) this iterator's buffering policy has dropped so far.
            public var droppedCount: UInt64 { cursor.dropped }

            /// The next error of type `T`, or `nil` once the stream is finished and drained or the task is
            /// cancelled.
            @inlinable
            public mutating func next(isolation actor: isolated (any Actor)?) async -> T? {
                while let slot = await cursor.next(isolation: actor) {
                    if let typed = slot.segment.error(at: slot.sequence) as? T { return typed }
                }
                return nil
            }

            /// The next error of type `T`, or `nil` once the stream is finished and drained or cancelled.
            public mutating func next() async -> T? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(cursor: events.makeAsyncIterator().cursor) }
    }

    /// Events from now on, with the default buffering policy (``BufferingPolicy/default``).
    public var events: Events { events() }

    /// Events from now on, with a buffering policy and an optional replay of up to `replay` earlier events (at
    /// most the stream's `historyCapacity`, and at most `n` under a bounded policy).
    ///
    /// ```swift
    /// let late = stream.events(bufferingPolicy: .unbounded, replay: 50)
    /// ```
    public func events(bufferingPolicy: BufferingPolicy = .default, replay: Int = 0) -> Events {
        Events(registration: Registration(stream: self, policy: bufferingPolicy, replay: replay))
    }

    /// Errors from now on, with the default buffering policy (``BufferingPolicy/default``).
    public var updates: Updates { updates() }

    /// Errors from now on, with a buffering policy and an optional replay of up to `replay` earlier errors.
    ///
    /// ```swift
    /// for await error in stream.updates(bufferingPolicy: .bufferingNewest(100), replay: 10) { … }
    /// ```
    public func updates(bufferingPolicy: BufferingPolicy = .default, replay: Int = 0) -> Updates {
        Updates(events: events(bufferingPolicy: bufferingPolicy, replay: replay))
    }

    /// Only errors of type `T`, typed as `T`. The policy applies to all events, before filtering.
    ///
    /// ```swift
    /// for await timeout in stream.updates(of: TimeoutError.self) { retry(timeout.request) }
    /// ```
    public func updates<T: Error>(
        of type: T.Type, bufferingPolicy: BufferingPolicy = .default, replay: Int = 0
    ) -> TypedUpdates<T> {
        TypedUpdates(events: events(bufferingPolicy: bufferingPolicy, replay: replay))
    }
}
