import Synchronization
import Testing

@testable import ErrorStreaming

/// `stream.eventPoller(...)` and `stream.reportPoller(...)`: what a poll takes, the callback that says when to
/// poll, and the same policies, drops and end as the `for await` listeners.
struct ErrorStreamPollerTests {
    /// Counts the calls of a poller's callback.
    private final class Calls: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func callback() -> @Sendable () -> Void { { self.count.add(1, ordering: .relaxed) } }
    }

    private func sequences(_ poller: ErrorStream.EventPoller, maximum: Int = .max) -> [UInt64] {
        var taken: [UInt64] = []
        poller.poll(maximum: maximum) { taken.append($0.sequence) }
        return taken
    }

    @Test func aPollTakesWhatIsAvailableInOrderAndNeverWaits() {
        let stream = makeStream()
        let poller = stream.eventPoller(bufferingPolicy: .unbounded) {}
        #expect(sequences(poller).isEmpty)  // nothing yet: returns at once
        for index in 1...1_300 { stream.add(Numbered(producer: 0, index: index)) }  // spans three segments
        #expect(sequences(poller, maximum: 600) == Array(1...600))
        #expect(sequences(poller, maximum: 100) == Array(601...700))
        #expect(sequences(poller) == Array(701...1_300))
        #expect(sequences(poller).isEmpty && !poller.isFinished)
    }

    @Test func theCallbackComesOnceForTheNextEventAfterArming() {
        let stream = makeStream()
        let calls = Calls()
        let poller = stream.eventPoller(onAvailable: calls.callback())
        #expect(poller.notifyWhenAvailable())
        #expect(calls.value == 0)
        stream.add(Numbered(producer: 0, index: 1))
        stream.add(Numbered(producer: 0, index: 2))
        #expect(calls.value == 1)  // once per arming, not per event
        #expect(!poller.notifyWhenAvailable())  // events wait: poll instead
        #expect(sequences(poller, maximum: 1) == [1])
        #expect(!poller.notifyWhenAvailable())  // one is still held
        #expect(sequences(poller) == [2])
        #expect(poller.notifyWhenAvailable())
        stream.finish()  // the end is news too
        #expect(calls.value == 2)
        #expect(sequences(poller).isEmpty && poller.isFinished)
        #expect(!poller.notifyWhenAvailable() && stream.subscriberCount == 0)
    }

    @Test func boundedPoliciesDropAsTheIteratorsDo() {
        let stream = makeStream()
        let oldest = stream.eventPoller(bufferingPolicy: .bufferingOldest(3)) {}
        let newest = stream.eventPoller(bufferingPolicy: .bufferingNewest(3)) {}
        for index in 1...10 { stream.add(Numbered(producer: 0, index: index)) }
        #expect(sequences(oldest) == [1, 2, 3] && oldest.droppedCount == 7)
        #expect(sequences(newest) == [8, 9, 10] && newest.droppedCount == 7)
        #expect(stream.statistics.dropped == 14)
    }

    @Test func replayAndFirstSequenceMatchTheIterators() {
        let stream = makeStream()
        for index in 1...5 { stream.add(Numbered(producer: 0, index: index)) }
        let poller = stream.eventPoller(bufferingPolicy: .unbounded, replay: 2) {}
        #expect(poller.firstSequence == 4)
        stream.add(Numbered(producer: 0, index: 6))
        #expect(sequences(poller) == [4, 5, 6])
    }

    @Test func cancellingUnregistersAndEndsThePolls() {
        let stream = makeStream()
        let poller = stream.eventPoller {}
        #expect(stream.subscriberCount == 1)
        stream.add(Numbered(producer: 0, index: 1))
        poller.cancel()
        #expect(stream.subscriberCount == 0 && poller.isFinished)
        #expect(sequences(poller).isEmpty && !poller.notifyWhenAvailable())
    }

    @Test func aReleasedPollerUnregisters() {
        let stream = makeStream()
        do {
            let poller = stream.eventPoller {}
            #expect(poller.notifyWhenAvailable() && stream.subscriberCount == 1)
        }
        #expect(stream.subscriberCount == 0 && stream.waiterCount == 0)
    }

    @Test func everyEventFromManyThreadsIsPolledOnceInSequenceOrder() async {
        let stream = makeStream()
        let poller = stream.eventPoller(bufferingPolicy: .unbounded) {}
        let taken = Mutex<[UInt64]>([])
        await onThreads(4) { producer in
            for index in 0..<2_000 {
                stream.add(Numbered(producer: producer, index: index))
                if index.isMultiple(of: 100) {
                    _ = taken.withLock { list in poller.poll { list.append($0.sequence) } }
                }
            }
        }
        _ = taken.withLock { list in poller.poll { list.append($0.sequence) } }
        #expect(taken.withLock { $0 } == Array(1...8_000))
    }

    @Test func reportPollersTakeEveryQueuedReportAndCallBackOncePerArming() {
        let stream = makeStream()
        let calls = Calls()
        let poller = stream.reportPoller(bufferingPolicy: .bufferingOldest(2), onAvailable: calls.callback())
        #expect(poller.notifyWhenAvailable())
        for sequence in 1...3 {
            stream.report(HandlingReport(sequence: UInt64(sequence), path: [], outcome: .passed, handled: false))
        }
        #expect(calls.value == 1)
        var taken: [UInt64] = []
        #expect(poller.poll { taken.append($0.sequence) } == 2)
        #expect(taken == [1, 2] && poller.droppedCount == 1)
        #expect(poller.notifyWhenAvailable())
        stream.finish()
        #expect(calls.value == 2)
        #expect(poller.poll { _ in } == 0 && poller.isFinished && stream.reportListenerCount == 0)
    }
}
