import ErrorStreaming
import NIOCore
import NIOEmbedded
import Testing

@testable import ErrorWatchWire

/// When `ForwarderState` asks for the event loop: one delayed drain for the lines (or stream news) of a quiet
/// moment, an immediate one for a full batch, none while one is on its way, a poll while it cannot write.
struct ForwarderDrainTests {
    private func kind(_ action: ForwarderState.Action) -> String {
        switch action {
        case .none: "none"
        case .drain: "now"
        case .drainLater: "later"
        case .pollLater: "poll"
        case .close: "close"
        }
    }

    private func connected(batchSize: Int = 4, drainsAtOnce: Bool = false) -> (ForwarderState, EmbeddedChannel) {
        var state = ForwarderState(
            capacity: 100, backoff: .constant(.milliseconds(1)), batchSize: batchSize, drainsAtOnce: drainsAtOnce)
        let channel = EmbeddedChannel()
        _ = state.start()
        #expect(kind(state.connected(channel)) == "now")  // whatever was queued before the connection
        #expect(state.takeBatch(for: channel, maximum: 4)?.isEmpty != false)  // nothing: the drain ends
        return (state, channel)
    }

    @Test func theFirstLineOfAQuietMomentAsksForOneDelayedDrain() {
        var (state, channel) = connected()
        #expect(kind(state.enqueue([1])) == "later")
        #expect(kind(state.enqueue([2])) == "none")
        #expect(kind(state.enqueue([3])) == "none")
        #expect(state.takeBatch(for: channel, maximum: 4)?.count == 3)
        #expect(state.takeBatch(for: channel, maximum: 4)?.isEmpty != false)
        #expect(kind(state.enqueue([4])) == "later")  // the drain ended: the next line schedules again
    }

    @Test func aFullBatchAsksForADrainAtOnceEvenWhileOneIsDelayed() {
        var (state, channel) = connected(batchSize: 4)
        #expect(kind(state.enqueue([1])) == "later")
        let lines: [(line: [UInt8]?, sequence: UInt64)] = [([2], 1), ([3], 2), ([4], 3)]
        #expect(kind(state.enqueueEvents(lines)) == "now")
        #expect(kind(state.enqueue([5])) == "none")  // one immediate drain is enough
        #expect(state.takeBatch(for: channel, maximum: 4)?.count == 4)
        #expect(state.takeBatch(for: channel, maximum: 4)?.count == 1)
    }

    @Test func aZeroFlushIntervalDrainsEveryLineAtOnce() {
        var (state, channel) = connected(drainsAtOnce: true)
        #expect(kind(state.enqueue([1])) == "now")
        #expect(kind(state.enqueue([2])) == "none")
        #expect(state.takeBatch(for: channel, maximum: 4)?.count == 2)
        #expect(state.takeBatch(for: channel, maximum: 4)?.isEmpty != false)
        #expect(kind(state.enqueue([3])) == "now")
    }

    @Test func newsFromTheStreamAsksForOneDelayedDrainOrAPollWhileItCannotWrite() {
        var (state, channel) = connected()
        #expect(kind(state.streamHasNews()) == "later")
        #expect(kind(state.streamHasNews()) == "none")  // one is on its way: it polls whatever came meanwhile
        #expect(kind(state.enqueue([1])) == "none")
        #expect(state.takeBatch(for: channel, maximum: 4)?.count == 1)
        #expect(state.takeBatch(for: channel, maximum: 4)?.isEmpty != false)  // the drain ended
        #expect(kind(state.streamHasNews()) == "later")
        _ = state.takeBatch(for: channel, maximum: 4)

        state.blocked = true  // the listener stopped reading: news is polled into the queue, not held unseen
        #expect(kind(state.streamHasNews()) == "poll")
        #expect(kind(state.streamHasNews()) == "none")
        state.pollScheduled = false
        let reconnects = state.lost(channel)
        #expect(reconnects)
        #expect(kind(state.streamHasNews()) == "poll")  // disconnected: the same
        state.pollScheduled = false
        _ = state.beginShutdown()
        #expect(kind(state.streamHasNews()) == "none")  // shutdown polls for itself
    }

    @Test func aZeroFlushIntervalDrainsStreamNewsAtOnce() {
        var (state, _) = connected(drainsAtOnce: true)
        #expect(kind(state.streamHasNews()) == "now")
        #expect(kind(state.streamHasNews()) == "none")
    }

    @Test func nothingIsAskedWhileDisconnected() {
        var state = ForwarderState(capacity: 10, backoff: .constant(.milliseconds(1)))
        #expect(kind(state.enqueue([1])) == "none")
        #expect(state.queue.count == 1)
    }
}
