import IngestTestSupport
import Testing

/// The probe's waits have no deadline of their own; cancellation (a suite's time limit) must end them.
@Suite(.timeLimit(.minutes(5)))
struct FeedProbeTests {
    @Test func aWaitForAConditionThatNeverHoldsEndsWhenItsTaskIsCancelled() async {
        let probe = FeedProbe()
        await withKnownIssue("cancelled before the condition held: the wait ends with a failed expectation") {
            let waiting = Task { try await probe.until { _ in false } }
            waiting.cancel()
            try await waiting.value
        }
    }
}
