import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

/// Frame pacing: with a live UI draining every frame, a feed whose posts are still pending waits for the next
/// drain instead of taking the stream's events one wake-up at a time.
struct FramePacingTests {
    /// Yields until `inbox` has `count` waiting feeds; the waiting task itself is the signal, no timing involved.
    private func waitForFeeds(_ count: Int, in inbox: ActionInbox) async {
        while inbox.waitingFeeds < count { await Task.yield() }
    }

    @Test func aFeedWaitsForTheNextDrainOnlyWhilePacedAndSomethingIsPending() async {
        let inbox = ActionInbox()
        await inbox.untilTaken()  // not paced: at once
        inbox.setFramePacing(true)
        await inbox.untilTaken()  // paced, nothing pending: at once
        inbox.post(event: ActionInboxTests.event(1))
        let resumed = Atomic<Bool>(false)
        let feed = Task {
            await inbox.untilTaken()
            resumed.store(true, ordering: .sequentiallyConsistent)
        }
        await waitForFeeds(1, in: inbox)
        let resumedBeforeTheDrain = resumed.load(ordering: .sequentiallyConsistent)
        #expect(!resumedBeforeTheDrain)
        #expect(inbox.drain().count == 1)
        await feed.value
        let resumedAfter = resumed.load(ordering: .sequentiallyConsistent)
        #expect(resumedAfter && inbox.waitingFeeds == 0)
    }

    @Test func turningPacingOffOrCancellingReleasesWaitingFeeds() async {
        let inbox = ActionInbox()
        inbox.setFramePacing(true)
        inbox.post(.statusMessage("pending"))
        let first = Task { await inbox.untilTaken() }
        await waitForFeeds(1, in: inbox)
        inbox.setFramePacing(false)  // the UI has stopped: nobody will drain
        await first.value
        #expect(inbox.waitingFeeds == 0)

        inbox.setFramePacing(true)
        let second = Task { await inbox.untilTaken() }
        await waitForFeeds(1, in: inbox)
        second.cancel()
        await second.value
        #expect(inbox.waitingFeeds == 0)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await inbox.untilTaken()  // already cancelled: never waits
        }
        await cancelled.value
        #expect(inbox.waitingFeeds == 0)
    }
}
