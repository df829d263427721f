import DequeModule
import Synchronization

/// A task executor that runs jobs only when asked, on the caller's thread, one at a time.
///
/// The headless `render` command runs the demo's tasks on it with a ``ManualClock``: after every clock step
/// it calls ``runUntilIdle()``, so each run of the same keys and seed interleaves the tasks the same way and
/// prints the same screen. It plays the part NIO's `EmbeddedEventLoop` plays for channel tests.
public final class SimulationExecutor: TaskExecutor {
    private let jobs = Mutex<Deque<UnownedJob>>([])

    /// An executor with no jobs.
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
    }

    /// Runs queued jobs, and the jobs they enqueue, until none is left. Returns how many ran.
    @discardableResult
    public func runUntilIdle() -> Int {
        var count = 0
        while let job = jobs.withLock({ $0.popFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            count += 1
        }
        return count
    }

    /// Jobs waiting to run.
    public var pendingJobs: Int { jobs.withLock { $0.count } }
}
