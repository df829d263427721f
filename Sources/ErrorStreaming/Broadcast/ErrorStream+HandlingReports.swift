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
        HandlingReports(registration: Registration(reportsOf: self, policy: bufferingPolicy))
    }

    /// The reports of ``handlingReports(bufferingPolicy:)``.
    public struct HandlingReports: AsyncSequence, Sendable {
        public typealias Element = HandlingReport
        public typealias Failure = Never

        let registration: Registration

        /// Takes every queued report in one lock acquisition, then hands them out one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = HandlingReport
            public typealias Failure = Never

            var lease: Lease?
            var batch: Deque<HandlingReport> = []
            /// Reports this iterator's buffering policy has discarded so far.
            public private(set) var droppedCount: UInt64 = 0

            /// Reports already taken from the stream that ``next(isolation:)`` returns without waiting.
            public var bufferedCount: Int { batch.count }

            init(lease: Lease) { self.lease = lease }

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
                unregister(id, from: .reports)
                return nil
            }
            switch reports.withLock({ $0.take(id) }) {
            case .taken(let queue, let skipped):
                dropped += skipped
                if !queue.isEmpty { return queue }
            case .finished:
                return nil
            case .wait:
                await park(id, in: .reports, isolation: isolation)
            }
        }
    }
}
