import Synchronization

extension ErrorStream {
    /// Which of a stream's two listener tables a listener is in: its events (``BroadcastLog``) or its handling
    /// reports (``HandlingBroadcast``). Registrations, leases and parking are written once for both.
    enum Listeners: Sendable {
        case events
        case reports
    }

    /// The registration a sequence or poller value makes when it is created.
    ///
    /// The first iterator made from the sequence claims it and takes over its listener; a sequence dropped
    /// without being iterated unregisters it in `deinit`. Later iterators of the same sequence value register
    /// fresh listeners of their own (sharing one listener between two loops would split its events).
    final class Registration: Sendable {
        let stream: ErrorStream
        let listeners: Listeners
        let id: UInt64?
        let policy: BufferingPolicy
        /// The first sequence number the registered listener may read (replay included); 0 for reports.
        let firstSequence: UInt64
        private let claimed = Atomic<Bool>(false)

        /// Registers an event listener that first reads up to `replay` earlier events.
        init(stream: ErrorStream, policy: BufferingPolicy, replay: Int) {
            self.stream = stream
            self.listeners = .events
            self.policy = policy
            (self.id, self.firstSequence) = stream.state.withLock { log in
                let id = log.register(policy: policy, replay: replay)
                return (id, id.flatMap { log.cursor(of: $0) } ?? log.nextSequence)
            }
        }

        /// Registers a listener of the handling reports made from now on.
        init(reportsOf stream: ErrorStream, policy: BufferingPolicy) {
            self.stream = stream
            self.listeners = .reports
            self.policy = policy
            self.id = stream.register(.reports, policy: policy)
            self.firstSequence = 0
        }

        /// The listener for a new iterator: this registration's the first time, a fresh one afterwards.
        func claim() -> Lease {
            if let id, !claimed.exchange(true, ordering: .acquiringAndReleasing) {
                return Lease(stream: stream, listeners: listeners, id: id)
            }
            return Lease(stream: stream, listeners: listeners, id: stream.register(listeners, policy: policy))
        }

        deinit {
            if let id, !claimed.load(ordering: .acquiring) { stream.unregister(id, from: listeners) }
        }
    }

    /// An iterator's or poller's hold on its listener; unregisters it when the iterator ends or is dropped.
    @usableFromInline
    final class Lease: Sendable {
        let stream: ErrorStream
        let listeners: Listeners
        let id: UInt64?

        init(stream: ErrorStream, listeners: Listeners, id: UInt64?) {
            self.stream = stream
            self.listeners = listeners
            self.id = id
        }

        /// Unregisters the listener now (idempotent; `deinit` does it otherwise).
        func end() {
            if let id { stream.unregister(id, from: listeners) }
        }

        deinit { end() }
    }

    /// Registers a fresh listener (no replay) in one of the tables; `nil` once the stream has finished.
    func register(_ listeners: Listeners, policy: BufferingPolicy) -> UInt64? {
        switch listeners {
        case .events: state.withLock { $0.register(policy: policy, replay: 0) }
        case .reports: reports.withLock { $0.register(policy: policy) }
        }
    }

    /// Removes a listener and resumes its waiter, if any, after unlocking. Idempotent.
    func unregister(_ id: UInt64, from listeners: Listeners = .events) {
        let waiter =
            switch listeners {
            case .events: state.withLock { $0.unregister(id) }
            case .reports: reports.withLock { $0.unregister(id) }
            }
        waiter?.resume()
    }

    /// Stores `waiter` to be woken by the listener's next event or report (or its end), or hands it back to be
    /// woken now when there is something to take already. Call the result's `resume()` after unlocking.
    func suspend(_ id: UInt64, in listeners: Listeners, waiter: Wakeup, cancelled: Bool) -> Wakeup? {
        switch listeners {
        case .events: state.withLock { $0.suspend(id, waiter: waiter, cancelled: cancelled) }
        case .reports: reports.withLock { $0.suspend(id, waiter: waiter, cancelled: cancelled) }
        }
    }

    /// Parks the calling task until the listener has something to take, has ended, or the task is cancelled
    /// (which unregisters the listener).
    func park(_ id: UInt64, in listeners: Listeners, isolation: isolated (any Actor)?) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Void, Never>) in
                // Safe to use an unsafe continuation: `suspend` either stores the waiter, and exactly one later
                // event (add or report, finish, unregister, cancel) removes it under the lock and resumes it, or
                // hands it straight back to be resumed here. Either way it is resumed exactly once.
                suspend(id, in: listeners, waiter: .continuation(waiter), cancelled: Task.isCancelled)?.resume()
            }
        } onCancel: {
            self.unregister(id, from: listeners)
        }
    }

    /// The listener's next batch, suspending until there is one.
    ///
    /// Returns `nil` when the listener has ended: unregistered, cancelled, or drained after `finish()`.
    @usableFromInline
    func nextBatch(
        _ id: UInt64,
        dropped: inout UInt64,
        isolation: isolated (any Actor)?
    ) async -> BroadcastLog.Batch? {
        var yielded = false
        while true {
            if Task.isCancelled {
                unregister(id)
                return nil
            }
            switch state.withLock({ $0.take(id) }) {
            case .taken(let batch, let skipped):
                dropped += skipped
                if batch.lower < batch.upper { return batch }
            case .finished:
                return nil
            case .wait where !yielded:
                // Let the producer run on before parking: the next take then gets a batch instead of one event,
                // and the producer is spared resuming a waiter for every add while listeners keep up.
                yielded = true
                await Task.yield()
            case .wait:
                await park(id, in: .events, isolation: isolation)
            }
        }
    }
}
