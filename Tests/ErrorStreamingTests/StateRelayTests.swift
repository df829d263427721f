import ErrorStreaming
import Synchronization
import Testing

struct StateRelayTests {
    @Test func subscriberGetsTheCurrentValueThenEveryChangeInOrder() async {
        let relay = StateRelay(0)
        relay.accept(1)
        var iterator = relay.values.makeAsyncIterator()
        relay.accept(2)
        relay.update { $0 += 10 }
        #expect(relay.value == 12)
        var seen: [Int] = []
        for _ in 0..<3 { seen.append(await iterator.next() ?? -1) }
        #expect(seen == [1, 2, 12])
    }

    @Test func valuesAreMulticastToEverySubscriber() async {
        let relay = StateRelay("a")
        var first = relay.values.makeAsyncIterator()
        var second = relay.values.makeAsyncIterator()
        #expect(relay.subscriberCount == 2)
        relay.accept("b")
        #expect(await first.next() == "a")
        #expect(await first.next() == "b")
        #expect(await second.next() == "a")
        #expect(await second.next() == "b")
    }

    @Test func finishEndsSubscribersAfterTheyDrain() async {
        let relay = StateRelay(1)
        let values = relay.values
        let task = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        relay.accept(2)
        relay.finish()
        relay.accept(3)
        let seen = await task.value
        #expect(seen.last == 2)
        #expect(!seen.contains(3))
        #expect(relay.value == 2)
    }

    @Test func aWaitingSubscriberIsWokenByAChange() async {
        let relay = StateRelay(0)
        let (ready, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var seen: [Int] = []
            for await value in relay.values {
                seen.append(value)
                if value == 0 { signal.yield() }
                if value == 5 { break }
            }
            return seen
        }
        for await _ in ready { break }
        relay.accept(5)
        #expect(await task.value == [0, 5])
        #expect(relay.subscriberCount == 0)
    }

    @Test func cancellingASubscriberEndsItsSequenceAndUnsubscribes() async {
        let relay = StateRelay(0)
        let (ready, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var count = 0
            for await _ in relay.values {
                count += 1
                signal.yield()
            }
            return count
        }
        for await _ in ready { break }
        task.cancel()
        #expect(await task.value == 1)
        #expect(relay.subscriberCount == 0)
    }

    @Test func bindAcceptsTheValuesOfASurvivingBinding() async {
        let relay = StateRelay("signed out")
        let taps = AsyncStream { continuation in
            for credentials in fourSignInTaps { continuation.yield(credentials) }
            continuation.finish()
        }
        var iterator = relay.values.makeAsyncIterator()
        await relay.bind(taps.performEach { try await signIn($0) }.values())
        var seen: [String] = []
        for _ in 0..<3 { seen.append(await iterator.next() ?? "") }
        #expect(seen == ["signed out", "welcome ann", "welcome bob"])
    }
}
