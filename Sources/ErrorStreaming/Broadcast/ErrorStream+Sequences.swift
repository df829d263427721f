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

        /// Reads the listener's events in batches: one lock acquisition takes everything available.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = ErrorEvent
            public typealias Failure = Never

            private var lease: Lease?
            private var buffer: ContiguousArray<ErrorEvent> = []
            private var index = 0
            /// Events this iterator's buffering policy has dropped so far (the gaps in `sequence` it has seen).
            public private(set) var droppedCount: UInt64 = 0

            init(lease: Lease) { self.lease = lease }

            /// The next event, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> ErrorEvent? {
                if index < buffer.count {
                    defer { index += 1 }
                    return buffer[index]
                }
                guard let lease, let id = lease.id else { return nil }
                buffer.removeAll(keepingCapacity: true)
                index = 0
                guard await lease.stream.refill(id, into: &buffer, dropped: &droppedCount, isolation: actor) else {
                    self.lease = nil
                    buffer = []
                    return nil
                }
                index = 1
                return buffer[0]
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

            var base: Events.AsyncIterator

            /// Events this iterator's buffering policy has dropped so far.
            public var droppedCount: UInt64 { base.droppedCount }

            /// The next error, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> (any Error)? {
                await base.next(isolation: actor)?.error
            }

            /// The next error, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next() async -> (any Error)? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: events.makeAsyncIterator()) }
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

            var base: Events.AsyncIterator

            /// Events (of any type) this iterator's buffering policy has dropped so far.
            public var droppedCount: UInt64 { base.droppedCount }

            /// The next error of type `T`, or `nil` once the stream is finished and drained or the task is
            /// cancelled.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> T? {
                while let event = await base.next(isolation: actor) {
                    if let typed = event.error as? T { return typed }
                }
                return nil
            }

            /// The next error of type `T`, or `nil` once the stream is finished and drained or cancelled.
            public mutating func next() async -> T? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: events.makeAsyncIterator()) }
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
