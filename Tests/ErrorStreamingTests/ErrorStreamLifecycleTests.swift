import Testing

@testable import ErrorStreaming

struct ErrorStreamLifecycleTests {
    @Test func aSequenceSubscribesWhenCreatedNotWhenIterated() async {
        let stream = makeStream()
        let updates = stream.updates(of: Other.self)
        stream.add(Other(index: 1))
        let task = Task {
            var seen: [Int] = []
            for await error in updates { seen.append(error.index) }
            return seen
        }
        stream.add(Other(index: 2))
        stream.finish()
        #expect(await task.value == [1, 2])
    }

    @Test func cancellingAWaitingListenerUnregistersItPromptly() async {
        let stream = makeStream()
        let updates = stream.updates
        let task = Task {
            var count = 0
            for await _ in updates { count += 1 }
            return count
        }
        #expect(await eventually { stream.waiterCount == 1 })
        #expect(stream.subscriberCount == 1)
        task.cancel()
        #expect(await eventually { stream.subscriberCount == 0 })
        #expect(await task.value == 0)
        #expect(stream.waiterCount == 0)
    }

    @Test func breakUnregisters() async {
        let stream = makeStream()
        let updates = stream.updates
        stream.add(Other(index: 1))
        stream.add(Other(index: 2))
        for await _ in updates { break }
        #expect(stream.subscriberCount == 0)
    }

    @Test func aSequenceDroppedWithoutIteratingUnregisters() {
        let stream = makeStream()
        _ = stream.updates
        _ = stream.events(bufferingPolicy: .unbounded, replay: 3)
        _ = stream.updates(of: Other.self)
        #expect(stream.subscriberCount == 0)
        do {
            let kept = stream.updates
            #expect(stream.subscriberCount == 1)
            withExtendedLifetime(kept) {}
        }
        #expect(stream.subscriberCount == 0)
    }

    @Test func aSecondIteratorOfOneSequenceGetsItsOwnListenerFromThenOn() async {
        let stream = makeStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        stream.add(Other(index: 1))
        var first = events.makeAsyncIterator()
        var second = events.makeAsyncIterator()
        #expect(stream.subscriberCount == 2)
        stream.add(Other(index: 2))
        stream.finish()
        var firstSeen: [UInt64] = []
        while let event = await first.next() { firstSeen.append(event.sequence) }
        var secondSeen: [UInt64] = []
        while let event = await second.next() { secondSeen.append(event.sequence) }
        #expect(firstSeen == [1, 2])
        #expect(secondSeen == [2])
        #expect(stream.subscriberCount == 0)
    }

    @Test func tenThousandSubscribeCancelCyclesLeaveNothingBehind() async {
        let stream = makeStream(historyCapacity: 8)
        for cycle in 0..<10_000 {
            let updates = stream.updates(bufferingPolicy: cycle.isMultiple(of: 3) ? .unbounded : .default)
            let task = Task { for await _ in updates {} }
            if cycle.isMultiple(of: 2) {
                // Cancel while it waits, not only before it starts.
                #expect(await eventually { stream.waiterCount == 1 })
            }
            stream.add(Other(index: cycle))
            task.cancel()
            await task.value
        }
        #expect(stream.subscriberCount == 0)
        #expect(stream.waiterCount == 0)
        #expect(stream.retainedCount <= 8 + BroadcastLog.trimSlack + BroadcastLog.segmentCapacity)
        #expect(stream.statistics.added == 10_000)
    }

    @Test func finishEndsEveryLoop() async {
        let stream = makeStream()
        let policies: [ErrorStream.BufferingPolicy] = [.unbounded, .bufferingNewest(2), .bufferingOldest(2), .default]
        let sequences = policies.map { stream.events(bufferingPolicy: $0) }
        let counts = await withTaskGroup(of: Int.self) { group in
            for events in sequences {
                group.addTask { await drain(events).count }
            }
            #expect(await eventually { stream.waiterCount == 4 })
            stream.add(Other(index: 1))
            stream.finish()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [1, 1, 1, 1])
        #expect(stream.subscriberCount == 0)
        #expect(stream.waiterCount == 0)
    }

    @Test func addingFromInsideAListenerLoopDoesNotDeadlock() async {
        let stream = makeStream()
        let updates = stream.updates(bufferingPolicy: .bufferingOldest(1))
        stream.add(Other(index: 0))
        var seen: [Int] = []
        for await error in updates {
            guard let other = error as? Other else { continue }
            seen.append(other.index)
            if other.index < 3 { stream.add(Other(index: other.index + 1)) } else { break }
            _ = stream.statistics  // reading the counters from the loop must not deadlock either
        }
        #expect(seen == [0, 1, 2, 3])
        #expect(stream.subscriberCount == 0)
    }

    @Test func addAfterFinishIsCountedAndIgnored() async {
        let stream = makeStream()
        stream.add(Other(index: 1))
        stream.finish()
        stream.add(Other(index: 2))
        stream.add(Other(index: 3), source: "late")
        stream.finish()
        let statistics = stream.statistics
        #expect(statistics.added == 1)
        #expect(statistics.addedAfterFinish == 2)
        // A listener that arrives after finish() gets its replay, then its loop ends.
        #expect(await drain(stream.events(replay: 5)).count == 1)
        #expect(await drain(stream.events).isEmpty)
        #expect(stream.subscriberCount == 0)
    }

    @Test(arguments: [ErrorStream.BufferingPolicy.bufferingNewest(1024), .bufferingOldest(1024)])
    func aListenerThatNeverIteratesKeepsMemoryBounded(policy: ErrorStream.BufferingPolicy) async {
        let stream = makeStream()
        let stuck = stream.events(bufferingPolicy: policy)
        // A reader under the default policy may lag arbitrarily too; it must not pin the log either.
        let reader = stream.events
        let reading = Task { await drain(reader).count }
        var peak = 0
        for index in 0..<100_000 {
            stream.add(Other(index: index))
            peak = max(peak, stream.retainedCount)
        }
        stream.finish()
        #expect(await reading.value >= 1024)
        // The log keeps at most twice the largest window (1024) plus the trim slack; never the 100,000.
        #expect(peak <= 2 * (1024 + BroadcastLog.segmentCapacity) + BroadcastLog.trimSlack)
        #expect(await drain(stuck).count == 1024)
        #expect(stream.statistics.dropped == 2 * 100_000 - 1024 - UInt64(await reading.value))
    }
}
