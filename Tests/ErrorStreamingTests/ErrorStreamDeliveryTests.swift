import Foundation
import Synchronization
import Testing

@testable import ErrorStreaming

struct ErrorStreamDeliveryTests {
    @Test func everyListenerReceivesEveryErrorAndTypedListenersOnlyTheirType() async {
        let stream = makeStream()
        let all = stream.updates(bufferingPolicy: .unbounded)
        let numbered = stream.updates(of: Numbered.self, bufferingPolicy: .unbounded)
        let others = stream.updates(of: Other.self, bufferingPolicy: .unbounded)
        let events = stream.events(bufferingPolicy: .unbounded)
        #expect(stream.subscriberCount == 4)

        // Added before any loop starts: the sequence values are already subscribed.
        for i in 0..<6 {
            if i.isMultiple(of: 2) { stream.add(Numbered(producer: 0, index: i)) } else { stream.add(Other(index: i)) }
        }
        stream.finish()

        var allCount = 0
        for await error in all where error is Numbered || error is Other { allCount += 1 }
        var numberedSeen: [Numbered] = []
        for await error in numbered { numberedSeen.append(error) }
        var otherSeen: [Other] = []
        for await error in others { otherSeen.append(error) }
        var sequences: [UInt64] = []
        for await event in events {
            sequences.append(event.sequence)
            #expect(event.source == "app" && event.severity == .error && event.origin == .user)
            #expect(event.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        }

        #expect(allCount == 6)
        #expect(numberedSeen == [0, 2, 4].map { Numbered(producer: 0, index: $0) })
        #expect(otherSeen == [1, 3, 5].map { Other(index: $0) })
        #expect(sequences == [1, 2, 3, 4, 5, 6])
        #expect(stream.subscriberCount == 0)
    }

    /// Errors added together get consecutive sequence numbers and reach listeners in order; `onAddBatch` hears them
    /// in one call (and a single add as a batch of one); after `finish()` they are counted and ignored.
    @Test func errorsAddedTogetherArriveInOrderAndTheBatchHookHearsThemInOneCall() async {
        let batches = Mutex<[[UInt64]]>([])
        let stream = ErrorStream(
            now: { Date(timeIntervalSince1970: 5) },
            onAddBatch: { events in batches.withLock { $0.append(events.map(\.sequence)) } })
        let events = stream.events(bufferingPolicy: .unbounded)
        stream.add(Other(index: 0))
        let feed = ErrorContext(source: "feed")
        let added = stream.add(contentsOf: (1...3).map { (Numbered(producer: 1, index: $0), feed) })
        #expect(added == 2..<5)
        #expect(stream.add(contentsOf: []) == 5..<5)
        stream.finish()
        #expect(stream.add(contentsOf: [(Other(index: 9), ErrorContext.default)]) == nil)

        var seen: [ErrorEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.map(\.sequence) == [1, 2, 3, 4])
        #expect(seen.map(\.source) == ["app", "feed", "feed", "feed"])
        #expect(seen.compactMap { $0.error as? Numbered }.map(\.index) == [1, 2, 3])
        #expect(Set(seen.map(\.timestamp)) == [Date(timeIntervalSince1970: 5)])
        #expect(batches.withLock { $0 } == [[1], [2, 3, 4]])
        #expect(stream.statistics.added == 4)
        #expect(stream.statistics.addedAfterFinish == 1)
    }

    /// Without a batch hook, `onAdd` hears each error added together, in order.
    @Test func withoutABatchHookOnAddHearsEachErrorAddedTogether() {
        let heard = Mutex<[UInt64]>([])
        let stream = ErrorStream(onAdd: { event in heard.withLock { $0.append(event.sequence) } })
        stream.add(contentsOf: (0..<3).map { (Other(index: $0), ErrorContext.default) })
        #expect(heard.withLock { $0 } == [1, 2, 3])
    }

    @Test func contextReachesTheListener() async {
        let stream = makeStream()
        let events = stream.events
        stream.add(Other(index: 1), source: "auth.login", severity: .warning, origin: .background, metadata: ["k": "v"])
        stream.finish()
        var received: [ErrorEvent] = []
        for await event in events { received.append(event) }
        #expect(received.count == 1)
        #expect(received.first?.source == "auth.login")
        #expect(received.first?.severity == .warning)
        #expect(received.first?.origin == .background)
        #expect(received.first?.metadata == ["k": "v"])
    }

    @Test func listenersSeeOneTotalOrderWhileListeningConcurrently() async {
        let stream = makeStream()
        let listeners = (0..<4).map { _ in stream.events(bufferingPolicy: .unbounded) }
        let results = await withTaskGroup(of: [Numbered].self) { group in
            for events in listeners {
                group.addTask {
                    var seen: [Numbered] = []
                    for await event in events { seen.append(event.error as! Numbered) }
                    return seen
                }
            }
            await onThreads(8) { producer in
                for index in 0..<2_000 { stream.add(Numbered(producer: producer, index: index)) }
            }
            stream.finish()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        #expect(results[0].count == 16_000)
        for other in results.dropFirst() { #expect(other == results[0]) }
        // Each producer's errors appear in the order it added them.
        var last = [Int](repeating: -1, count: 8)
        for error in results[0] {
            #expect(error.index == last[error.producer] + 1)
            last[error.producer] = error.index
        }
    }

    @Test func noLossUnboundedWithEightProducersAndSixteenListeners() async {
        let stream = makeStream()
        let producers = 8
        let perProducer = 20_000
        let listeners = (0..<16).map { _ in stream.events(bufferingPolicy: .unbounded) }
        let counts = await withTaskGroup(of: (count: Int, ordered: Bool).self) { group in
            for events in listeners {
                group.addTask {
                    var count = 0
                    var previous: UInt64 = 0
                    var ordered = true
                    for await event in events {
                        count += 1
                        ordered = ordered && event.sequence == previous + 1
                        previous = event.sequence
                    }
                    return (count, ordered)
                }
            }
            await onThreads(producers) { producer in
                for index in 0..<perProducer { stream.add(Numbered(producer: producer, index: index)) }
            }
            stream.finish()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.count == 16)
        for result in counts {
            #expect(result.count == producers * perProducer)
            #expect(result.ordered)
        }
        #expect(stream.statistics.added == UInt64(producers * perProducer))
        #expect(stream.statistics.dropped == 0)
        #expect(stream.subscriberCount == 0)
    }

    @Test(arguments: [ErrorStream.BufferingPolicy.bufferingNewest(16), .bufferingOldest(16)])
    func droppedEqualsTheGapsBehindAListenerThatDoesNotRead(policy: ErrorStream.BufferingPolicy) async {
        let stream = makeStream()
        let events = stream.events(bufferingPolicy: policy)
        for index in 0..<1_000 { stream.add(Numbered(producer: 0, index: index)) }
        #expect(stream.statistics.dropped == 984)
        stream.finish()
        let sequences = await drain(events)
        let expected: [UInt64] = policy == .bufferingNewest(16) ? Array(985...1_000) : Array(1...16)
        #expect(sequences == expected)
        #expect(stream.statistics.dropped == gaps(in: sequences, added: 1_000))
    }

    @Test(arguments: [ErrorStream.BufferingPolicy.bufferingNewest(8), .bufferingOldest(8)])
    func droppedEqualsTheGapsWhileListenersReadConcurrently(policy: ErrorStream.BufferingPolicy) async {
        let stream = makeStream()
        let listeners = (0..<4).map { _ in stream.events(bufferingPolicy: policy) }
        let received = await withTaskGroup(of: (sequences: [UInt64], dropped: UInt64).self) { group in
            for events in listeners {
                group.addTask {
                    var iterator = events.makeAsyncIterator()
                    var sequences: [UInt64] = []
                    while let event = await iterator.next() { sequences.append(event.sequence) }
                    return (sequences, iterator.droppedCount)
                }
            }
            await onThreads(4) { producer in
                for index in 0..<10_000 { stream.add(Numbered(producer: producer, index: index)) }
            }
            stream.finish()
            return await group.reduce(into: []) { $0.append($1) }
        }
        let added = stream.statistics.added
        #expect(added == 40_000)
        var totalGaps: UInt64 = 0
        for listener in received {
            #expect(zip(listener.sequences, listener.sequences.dropFirst()).allSatisfy { $0 < $1 })
            let listenerGaps = gaps(in: listener.sequences, added: added)
            #expect(listener.dropped == listenerGaps)
            totalGaps += listenerGaps
        }
        #expect(stream.statistics.dropped == totalGaps)
    }

    @Test func replayDeliversTheMostRecentHistoryThenNewErrors() async {
        let stream = makeStream(historyCapacity: 4)
        for index in 1...10 { stream.add(Other(index: index)) }
        let three = stream.updates(of: Other.self, bufferingPolicy: .unbounded, replay: 3)
        let tooMany = stream.updates(of: Other.self, bufferingPolicy: .unbounded, replay: 100)
        let bounded = stream.updates(of: Other.self, bufferingPolicy: .bufferingNewest(2), replay: 4)
        let none = stream.updates(of: Other.self, bufferingPolicy: .unbounded)
        stream.add(Other(index: 11))
        stream.finish()

        func indices(_ updates: ErrorStream.TypedUpdates<Other>) async -> [Int] {
            var result: [Int] = []
            for await error in updates { result.append(error.index) }
            return result
        }
        #expect(await indices(three) == [8, 9, 10, 11])
        #expect(await indices(tooMany) == [7, 8, 9, 10, 11])
        #expect(await indices(bounded) == [10, 11])
        #expect(await indices(none) == [11])
        #expect(stream.statistics.dropped == 1)  // `bounded` kept 2 of its 3 (replayed 9, 10, then 11)
    }

    @MainActor @Test func aListenerOnTheMainActorReceivesErrorsAddedFromOtherThreads() async {
        let stream = makeStream()
        let updates = stream.updates(of: Numbered.self, bufferingPolicy: .unbounded)
        let producing = Task.detached {
            await onThreads(2) { producer in
                for index in 0..<500 { stream.add(Numbered(producer: producer, index: index)) }
            }
            stream.finish()
        }
        var count = 0
        for await _ in updates {
            MainActor.assertIsolated()
            count += 1
        }
        await producing.value
        #expect(count == 1_000)
    }

    @Test func aOneMegabyteMessageIsDelivered() async {
        let stream = makeStream()
        let updates = stream.updates(of: Huge.self)
        let message = String(repeating: "x", count: 1 << 20)
        stream.add(Huge(message: message))
        stream.finish()
        var received: [Huge] = []
        for await error in updates { received.append(error) }
        #expect(received.count == 1)
        #expect(received.first?.message.utf8.count == 1 << 20)
        #expect(received.first?.message == message)
    }
}
