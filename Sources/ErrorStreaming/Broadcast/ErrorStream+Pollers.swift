import DequeModule
import Synchronization

extension ErrorStream {
    /// A listener read by polling instead of `for await`, for a consumer that runs on a thread or an event loop of
    /// its own and wants no task to wake per event: a forwarder that writes to a socket in batches, say.
    ///
    /// It sees what an ``Events`` iterator with the same buffering policy would see, in the same order and with the
    /// same drops. ``poll(maximum:_:)`` never waits; ``notifyWhenAvailable()`` asks for the poller's `onAvailable`
    /// callback to be called once, by the thread that adds the next event (or finishes the stream), after the
    /// stream's lock is released. A consumer therefore costs one callback per quiet-to-busy change, not one per
    /// event:
    ///
    /// ```swift
    /// let poller = stream.eventPoller(bufferingPolicy: .bufferingOldest(4096)) {
    ///     loop.execute { drain() }             // called on the adding thread: hand over, return at once
    /// }
    /// func drain() {                           // on the loop
    ///     poller.poll { event in send(event) }
    ///     if !poller.notifyWhenAvailable() { loop.execute { drain() } }   // more came meanwhile
    /// }
    /// ```
    ///
    /// Poll from one thread at a time (an event loop, a serial queue): concurrent polls each get some of the
    /// events, in no defined order between them. The listener is unregistered by ``cancel()`` or when the poller is
    /// released.
    public final class EventPoller: Sendable {
        /// The held remainder of a batch taken from the stream, and the poller's counters.
        private struct Held {
            var segment: LogSegment?
            var position: UInt64 = 0
            var end: UInt64 = 0
            var dropped: UInt64 = 0
            var finished = false
        }

        /// The sequence number of the first event this poller can deliver (see ``Events/firstSequence``).
        public let firstSequence: UInt64
        private let lease: Lease
        private let onAvailable: @Sendable () -> Void
        private let held = Mutex(Held())

        init(registration: Registration, onAvailable: @escaping @Sendable () -> Void) {
            self.firstSequence = registration.firstSequence
            self.lease = registration.claim()
            self.onAvailable = onAvailable
        }

        /// Events this poller's buffering policy has dropped so far (the gaps in `sequence` it has seen).
        public var droppedCount: UInt64 { held.withLock { $0.dropped } }

        /// Whether the listener has ended: the stream finished and every event was taken, or ``cancel()`` was
        /// called. Learned by polling.
        public var isFinished: Bool { held.withLock { $0.finished } }

        /// Passes up to `maximum` of the events available now to `body`, oldest first; never waits.
        ///
        /// Each lock acquisition takes a whole run of events, which `body` then reads outside the lock. Events
        /// beyond `maximum` stay for the next poll. Do not poll this poller from `body`.
        /// - Returns: how many events `body` was given.
        @discardableResult
        public func poll(maximum: Int = .max, _ body: (ErrorEvent) -> Void) -> Int {
            var delivered = 0
            while delivered < maximum, let (segment, range) = nextRun(limit: maximum - delivered) {
                for sequence in range { body(segment[sequence]) }
                delivered += range.count
            }
            return delivered
        }

        /// Asks for the `onAvailable` callback to be called once, when the next event is added or the stream
        /// finishes. Returns `false`, without asking, when there is something to poll already: poll again instead.
        public func notifyWhenAvailable() -> Bool {
            guard !held.withLock({ $0.position < $0.end || $0.finished }), let id = lease.id else { return false }
            let now = lease.stream.suspend(id, in: .events, waiter: .callback(onAvailable), cancelled: false)
            return now == nil
        }

        /// Stops listening: the listener is unregistered and later polls deliver nothing.
        public func cancel() {
            held.withLock {
                $0.finished = true
                $0.segment = nil
                $0.position = $0.end
            }
            lease.end()
        }

        /// The next run of events to read: the held remainder first, then a batch from the stream.
        private func nextRun(limit: Int) -> (LogSegment, Range<UInt64>)? {
            if let run = held.withLock({ Self.take(from: &$0, limit: limit) }) { return run }
            guard let id = lease.id else { return nil }
            while true {
                switch lease.stream.state.withLock({ $0.take(id) }) {
                case .taken(let batch, let dropped):
                    let run = held.withLock { held -> (LogSegment, Range<UInt64>)? in
                        held.dropped += dropped
                        guard !held.finished else { return nil }
                        (held.segment, held.position, held.end) = (batch.segment, batch.lower, batch.upper)
                        return Self.take(from: &held, limit: limit)
                    }
                    if let run { return run }
                    if isFinished { return nil }
                case .wait:
                    return nil
                case .finished:
                    held.withLock { $0.finished = true }
                    return nil
                }
            }
        }

        /// Up to `limit` events of the held batch, advancing past them.
        private static func take(from held: inout Held, limit: Int) -> (LogSegment, Range<UInt64>)? {
            guard let segment = held.segment, held.position < held.end else { return nil }
            let upper = held.position + min(UInt64(limit), held.end - held.position)
            defer {
                held.position = upper
                if upper == held.end { held.segment = nil }
            }
            return (segment, held.position..<upper)
        }
    }

    /// A listener of handling reports read by polling, as ``EventPoller`` reads events.
    ///
    /// ```swift
    /// let reports = stream.reportPoller(bufferingPolicy: .bufferingOldest(4096)) { loop.execute { drain() } }
    /// reports.poll { report in send(report) }
    /// ```
    public final class ReportPoller: Sendable {
        private struct Held {
            var dropped: UInt64 = 0
            var finished = false
        }

        private let lease: Lease
        private let onAvailable: @Sendable () -> Void
        private let held = Mutex(Held())

        init(registration: Registration, onAvailable: @escaping @Sendable () -> Void) {
            self.lease = registration.claim()
            self.onAvailable = onAvailable
        }

        /// Reports this poller's buffering policy has discarded so far.
        public var droppedCount: UInt64 { held.withLock { $0.dropped } }

        /// Whether the listener has ended: the stream finished and every report was taken, or ``cancel()`` was
        /// called. Learned by polling.
        public var isFinished: Bool { held.withLock { $0.finished } }

        /// Passes every report queued now to `body`, oldest first; never waits.
        /// - Returns: how many reports `body` was given.
        @discardableResult
        public func poll(_ body: (HandlingReport) -> Void) -> Int {
            guard let id = lease.id, !isFinished else { return 0 }
            switch lease.stream.reports.withLock({ $0.take(id) }) {
            case .taken(let reports, let dropped):
                let finished = held.withLock {
                    $0.dropped += dropped
                    return $0.finished
                }
                guard !finished else { return 0 }
                for report in reports { body(report) }
                return reports.count
            case .wait:
                return 0
            case .finished:
                held.withLock { $0.finished = true }
                return 0
            }
        }

        /// Asks for the `onAvailable` callback to be called once, when the next report is made or the stream
        /// finishes. Returns `false`, without asking, when there is something to poll already.
        public func notifyWhenAvailable() -> Bool {
            guard !isFinished, let id = lease.id else { return false }
            let now = lease.stream.suspend(id, in: .reports, waiter: .callback(onAvailable), cancelled: false)
            return now == nil
        }

        /// Stops listening: the listener is unregistered and later polls deliver nothing.
        public func cancel() {
            held.withLock { $0.finished = true }
            lease.end()
        }
    }

    /// A listener of the events added from now on (plus up to `replay` earlier ones), read by polling; see
    /// ``EventPoller``.
    ///
    /// - Parameters:
    ///   - bufferingPolicy: what the backlog does while the poller falls behind, as for ``events(bufferingPolicy:replay:)``.
    ///   - replay: earlier events to deliver first.
    ///   - onAvailable: called once per ``EventPoller/notifyWhenAvailable()``, on the thread that adds the next
    ///     event or finishes the stream, outside the stream's lock. Keep it short: hand the work to your loop.
    public func eventPoller(
        bufferingPolicy: BufferingPolicy = .default, replay: Int = 0,
        onAvailable: @escaping @Sendable () -> Void
    ) -> EventPoller {
        EventPoller(
            registration: Registration(stream: self, policy: bufferingPolicy, replay: replay), onAvailable: onAvailable)
    }

    /// A listener of the handling reports made from now on, read by polling; see ``ReportPoller``.
    public func reportPoller(
        bufferingPolicy: BufferingPolicy = .default, onAvailable: @escaping @Sendable () -> Void
    ) -> ReportPoller {
        ReportPoller(registration: Registration(reportsOf: self, policy: bufferingPolicy), onAvailable: onAvailable)
    }
}
