import DequeModule
import Synchronization

extension ErrorStream {
    /// Publishes how an error's handling ended to every listener of ``handlingReports(bufferingPolicy:)``.
    ///
    /// A root made with ``ErrorHandler/init(forwardingTo:name:file:line:)`` calls this once per error thrown into
    /// its tree, after the descent, with the sequence number the error's event got in this stream. Synchronous,
    /// never waits on a listener; ignored after ``finish()``.
    ///
    /// ```swift
    /// if let sequence = stream.add(error) {
    ///     stream.report(HandlingReport(sequence: sequence, path: ["retry"], outcome: .passed, handled: false))
    /// }
    /// ```
    public func report(_ report: HandlingReport) {
        let woken = reports.withLock { $0.report(report) }
        for waiter in woken { waiter.resume() }
    }

    /// Handling reports made from now on, in the order they were made (see ``HandlingReport``).
    ///
    /// Like ``events(bufferingPolicy:replay:)``, the listener is registered when this value is created, so no
    /// report made before the loop starts is lost, and unregistered when the loop ends or the value is dropped
    /// uniterated. Join the reports to the events by ``HandlingReport/sequence``; a report always comes after the
    /// error's event was added, but a listener of both sequences may read them in either order.
    ///
    /// ```swift
    /// for await report in stream.handlingReports(bufferingPolicy: .bufferingNewest(100)) {
    ///     detail[report.sequence] = report
    /// }
    /// ```
    public func handlingReports(bufferingPolicy: BufferingPolicy = .default) -> HandlingReports {
        HandlingReports(registration: ReportRegistration(stream: self, policy: bufferingPolicy))
    }

    /// The reports of ``handlingReports(bufferingPolicy:)``.
    public struct HandlingReports: AsyncSequence, Sendable {
        public typealias Element = HandlingReport
        public typealias Failure = Never

        let registration: ReportRegistration

        /// Takes every queued report in one lock acquisition, then hands them out one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = HandlingReport
            public typealias Failure = Never

            var lease: ReportLease?
            var batch: Deque<HandlingReport> = []
            /// Reports this iterator's buffering policy has discarded so far.
            public private(set) var droppedCount: UInt64 = 0

            /// Reports already taken from the stream that ``next(isolation:)`` returns without waiting.
            public var bufferedCount: Int { batch.count }

            init(lease: ReportLease) { self.lease = lease }

            /// The next report, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next(isolation actor: isolated (any Actor)?) async -> HandlingReport? {
                if let report = batch.popFirst() { return report }
                guard let lease, let id = lease.id else { return nil }
                guard let taken = await lease.stream.nextReports(id, dropped: &droppedCount, isolation: actor) else {
                    self.lease = nil  // unregisters now, even if the iterator itself lives on
                    return nil
                }
                batch = taken
                return batch.popFirst()
            }

            /// The next report, or `nil` once the stream is finished and drained or the task is cancelled.
            public mutating func next() async -> HandlingReport? { await next(isolation: nil) }
        }

        /// Starts reading. The first iterator continues the listener registered when this value was created.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(lease: registration.claim()) }
    }

    /// The registration a ``HandlingReports`` value makes when it is created (see ``Registration``, whose rules
    /// it follows: the first iterator claims it, a value dropped uniterated unregisters it).
    final class ReportRegistration: Sendable {
        let stream: ErrorStream
        let id: UInt64?
        let policy: BufferingPolicy
        private let claimed = Atomic<Bool>(false)

        init(stream: ErrorStream, policy: BufferingPolicy) {
            self.stream = stream
            self.policy = policy
            self.id = stream.reports.withLock { $0.register(policy: policy) }
        }

        /// The listener for a new iterator: this registration's the first time, a fresh one afterwards.
        func claim() -> ReportLease {
            if let id, !claimed.exchange(true, ordering: .acquiringAndReleasing) {
                return ReportLease(stream: stream, id: id)
            }
            return ReportLease(stream: stream, id: stream.reports.withLock { $0.register(policy: policy) })
        }

        deinit {
            if let id, !claimed.load(ordering: .acquiring) { stream.unregisterReports(id) }
        }
    }

    /// An iterator's hold on its report listener; unregisters it when the iterator ends or is dropped.
    final class ReportLease: Sendable {
        let stream: ErrorStream
        let id: UInt64?

        init(stream: ErrorStream, id: UInt64?) {
            self.stream = stream
            self.id = id
        }

        deinit {
            if let id { stream.unregisterReports(id) }
        }
    }

    /// Removes a report listener and resumes its waiter, if any, after unlocking. Idempotent.
    func unregisterReports(_ id: UInt64) {
        let waiter = reports.withLock { $0.unregister(id) }
        waiter?.resume()
    }

    /// Report listeners registered right now. For tests.
    var reportListenerCount: Int { reports.withLock { $0.listenerCount } }

    /// Report listeners waiting right now. For tests.
    var reportWaiterCount: Int { reports.withLock { $0.waiterCount } }

    /// The listener's queued reports, suspending until there are some; `nil` once the listener has ended.
    func nextReports(
        _ id: UInt64,
        dropped: inout UInt64,
        isolation: isolated (any Actor)?
    ) async -> Deque<HandlingReport>? {
        while true {
            if Task.isCancelled {
                unregisterReports(id)
                return nil
            }
            switch reports.withLock({ $0.take(id) }) {
            case .taken(let queue, let skipped):
                dropped += skipped
                if !queue.isEmpty { return queue }
            case .finished:
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation(isolation: isolation) { (waiter: UnsafeContinuation<Void, Never>) in
                        // Safe to use an unsafe continuation: `suspend` either stores the waiter, and exactly one
                        // later event (report, finish, unregister, cancel) removes it under the lock and resumes
                        // it, or hands it straight back to be resumed here. Either way it is resumed exactly once.
                        let resumeNow = reports.withLock {
                            $0.suspend(id, waiter: .continuation(waiter), cancelled: Task.isCancelled)
                        }
                        resumeNow?.resume()
                    }
                } onCancel: {
                    self.unregisterReports(id)
                }
            }
        }
    }
}
