import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import Foundation
import Synchronization

/// Follows a file for the dashboard (`--tail`): a ``FileTailer`` polled on the runtime's clock, its events into the
/// ingest, its row in the Sources pane. The counterpart of ``PipeFollower`` for regular files.
///
/// A file that cannot be read (its permission was taken away, a disk error) is retried with ``backoff`` (500 ms,
/// doubling, at most 8 s; reset by the next batch read), and the row says so, rather than followed no more.
final class FileFollower: Sendable {
    private let tailer: FileTailer
    private let interval: Duration
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The delays between attempts to read a file that failed.
    static let backoff = Backoff(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(8), jitter: 0)

    /// A follower of `tailer`, checking for new lines every `interval`.
    init(tailer: FileTailer, interval: Duration) {
        self.tailer = tailer
        self.interval = interval
    }

    /// Starts following on the runtime's clock.
    func start(into ingest: RemoteIngest, clock: ErasedClock) {
        let tailer = self.tailer
        let interval = self.interval
        let from = "file " + tailer.path
        let started = Task {
            var status = SourceStatus(
                id: "file:" + tailer.path, kind: .file, name: (tailer.path as NSString).lastPathComponent,
                detail: tailer.path, state: "following", health: .ok)
            ingest.update(status)
            var failures = 0
            while !Task.isCancelled {
                do {
                    try await tailer.run(every: interval, clock: clock) { batch in
                        failures = 0
                        for event in batch.events { ingest.ingest(event, from: from) }
                        let statistics = tailer.statistics
                        status.events = statistics.events
                        status.badLines = Int(statistics.badLines)
                        if let problem = batch.badLines.last { status.lastProblem = problem.description }
                        status.health = statistics.badLines > 0 ? .degraded : .ok
                        status.state =
                            batch.rotated ? "following (rotated)" : batch.truncated ? "following (truncated)" : "following"
                        status.lastEventAt = batch.events.isEmpty ? status.lastEventAt : Date()
                        ingest.update(status)
                    }
                } catch is CancellationError {
                    return
                } catch {
                    failures += 1
                    let delay = Self.backoff.delay(afterAttempt: failures, random: 0)
                    status.state = "retrying in \(Format.seconds(delay))"
                    status.health = .failing
                    status.lastProblem = "\(error)"
                    ingest.update(status)
                    do { try await clock.sleep(for: delay) } catch { return }
                }
            }
        }
        task.withLock { $0 = started }
    }

    /// Stops following and waits for the last batch to be ingested.
    func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
    }
}
