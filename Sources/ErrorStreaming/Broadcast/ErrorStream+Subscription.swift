import Synchronization

extension ErrorStream {
    /// The registration a sequence value makes when it is created.
    ///
    /// The first iterator made from the sequence claims it and takes over its listener; a sequence dropped
    /// without being iterated unregisters it in `deinit`. Later iterators of the same sequence value register
    /// fresh listeners of their own (sharing one listener between two loops would split its events).
    final class Registration: Sendable {
        let stream: ErrorStream
        let id: UInt64?
        let policy: BufferingPolicy
        /// The first sequence number the registered listener may read (replay included).
        let firstSequence: UInt64
        private let claimed = Atomic<Bool>(false)

        init(stream: ErrorStream, policy: BufferingPolicy, replay: Int) {
            self.stream = stream
            self.policy = policy
            (self.id, self.firstSequence) = stream.state.withLock { log in
                let id = log.register(policy: policy, replay: replay)
                return (id, id.flatMap { log.cursor(of: $0) } ?? log.nextSequence)
            }
        }

        /// The listener for a new iterator: this registration's the first time, a fresh one afterwards.
        func claim() -> Lease {
            if let id, !claimed.exchange(true, ordering: .acquiringAndReleasing) {
                return Lease(stream: stream, id: id)
            }
            return Lease(stream: stream, id: stream.state.withLock { $0.register(policy: policy, replay: 0) })
        }

        deinit {
            if let id, !claimed.load(ordering: .acquiring) { stream.unregister(id) }
        }
    }

    /// An iterator's hold on its listener; unregisters it when the iterator ends or is dropped.
    @usableFromInline
    final class Lease: Sendable {
        let stream: ErrorStream
        let id: UInt64?

        init(stream: ErrorStream, id: UInt64?) {
            self.stream = stream
            self.id = id
        }

        deinit {
            if let id { stream.unregister(id) }
        }
    }

    /// Removes a listener and resumes its waiter, if any, after unlocking. Idempotent.
    func unregister(_ id: UInt64) {
        let waiter = state.withLock { $0.unregister(id) }
        waiter?.resume()
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
                await withTaskCancellationHandler {
                    await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Void, Never>) in
                        // Safe to use an unsafe continuation: `suspend` either stores the waiter, and exactly one
                        // later event (add, finish, unregister, cancel) removes it under the lock and resumes it,
                        // or hands it straight back to be resumed here. Either way it is resumed exactly once.
                        let resumeNow = state.withLock {
                            $0.suspend(id, waiter: .continuation(waiter), cancelled: Task.isCancelled)
                        }
                        resumeNow?.resume()
                    }
                } onCancel: {
                    self.unregister(id)
                }
            }
        }
    }
}
