import DequeModule
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Follows the files a dashboard reads (`errorwatch FILE…`, `--tail`): each a ``FileTailer`` polled on the
/// runtime's clock, all of them in one timeline, each with its row in the Sources pane. The counterpart of
/// ``PipeFollower`` for regular files.
///
/// Files opened together are merged by time as they are read, like a merge of sorted runs: each file is read a
/// bounded piece ahead (``lookahead`` events) into a queue of its own, and the event handed on next is always the
/// earliest at the head of a queue, for as long as every file that still has unread lines has one waiting; a file
/// read to its end waits for nobody. So two logs written side by side arrive interleaved as they happened, in
/// bounded memory, without either being read whole first. The lines of one file keep their order.
///
/// A file an earlier run counted into the store (its ``FileMark``) is read again for the screen; its events before
/// the mark are ingested as counted before, and each file's new mark is recorded once the events before it are
/// ingested (``RemoteIngest/recordRead(_:)``).
///
/// A file that cannot be read (its permission was taken away, a disk error) is retried with ``backoff`` (500 ms,
/// doubling, at most 8 s; reset by the next batch read), and its row says so, rather than followed no more; the
/// others go on without waiting for it.
final class FileFollower: Sendable {
    private let tailers: [FileTailer]
    private let interval: Duration
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The delays between attempts to read a file that failed.
    static let backoff = Backoff(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(8), jitter: 0)
    /// The most events read ahead of the merge from one file: a file is not polled while its queue holds this many.
    static let lookahead = 4_096

    /// A follower of `tailers`, checking for new lines every `interval`.
    init(tailers: [FileTailer], interval: Duration) {
        self.tailers = tailers
        self.interval = interval
    }

    /// One file in the merge.
    fileprivate struct Lane {
        let tailer: FileTailer
        let from: String
        var status: SourceStatus
        /// Events read and not yet handed on, each with whether an earlier reading counted it.
        var queue: Deque<(event: WireEvent, countedBefore: Bool)> = []
        /// Whether the last poll read to the end of what the file holds now.
        var caughtUp = false
        /// Events queued and handed on since the start, and the marks to record once enough are handed on.
        var queued = 0
        var handedOn = 0
        var marks: Deque<(after: Int, mark: FileMark)> = []
        /// The last mark queued: a poll that found nothing new makes the same again, which is not recorded again.
        var lastMark: FileMark?
        var failures = 0
        var retryAt: ErasedClock.Instant?
        var statusChanged = true

        init(_ tailer: FileTailer) {
            self.tailer = tailer
            from = "file " + tailer.path
            status = SourceStatus(
                id: "file:" + tailer.path, kind: .file, name: (tailer.path as NSString).lastPathComponent,
                detail: tailer.path, state: "following", health: .ok)
        }

        /// Whether the merge must wait for this file before handing on a later event of another.
        var blocks: Bool { queue.isEmpty && !caughtUp && retryAt == nil }
    }

    /// Starts following on the runtime's clock.
    func start(into ingest: RemoteIngest, clock: ErasedClock) {
        let tailers = self.tailers
        let interval = self.interval
        guard !tailers.isEmpty else { return }
        let started = Task {
            var lanes = tailers.map(Lane.init)
            ingest.update(lanes.map(\.status))
            while !Task.isCancelled {
                var more = false
                for index in lanes.indices {
                    guard lanes[index].queue.count < Self.lookahead else {
                        more = true
                        continue
                    }
                    if let retry = lanes[index].retryAt {
                        guard clock.now >= retry else { continue }
                        lanes[index].retryAt = nil
                    }
                    do {
                        let batch = try lanes[index].tailer.poll()
                        lanes[index].take(batch)
                        more = more || batch.more
                    } catch {
                        lanes[index].fail(error, now: clock.now)
                    }
                }
                Self.handOn(&lanes, to: ingest)
                let changed = lanes.indices.filter { lanes[$0].statusChanged }
                if !changed.isEmpty {
                    ingest.update(changed.map { lanes[$0].status })
                    for index in changed { lanes[index].statusChanged = false }
                }
                if more || lanes.contains(where: { !$0.queue.isEmpty && !$0.blocks }) {
                    await Task.yield()
                } else {
                    do { try await clock.sleep(for: interval) } catch { return }
                    // What the files hold now is read at the next round.
                    for index in lanes.indices { lanes[index].caughtUp = false }
                }
            }
        }
        task.withLock { $0 = started }
    }

    /// Hands on the queued events in time order while no file that may still hold an earlier one is waited for,
    /// then records the marks the handed-on events reached.
    fileprivate static func handOn(_ lanes: inout [Lane], to ingest: RemoteIngest) {
        while !lanes.contains(where: \.blocks) {
            var earliest: Int?
            for index in lanes.indices {
                guard let head = lanes[index].queue.first else { continue }
                if let best = earliest, lanes[best].queue.first!.event.time <= head.event.time { continue }
                earliest = index
            }
            guard let index = earliest else { break }
            let (event, counted) = lanes[index].queue.removeFirst()
            ingest.ingest(event, from: lanes[index].from, channel: .file, countedBefore: counted)
            lanes[index].handedOn += 1
        }
        for index in lanes.indices {
            var reached: FileMark?
            while let first = lanes[index].marks.first, first.after <= lanes[index].handedOn {
                reached = first.mark
                lanes[index].marks.removeFirst()
            }
            if let reached { ingest.recordRead(reached) }
        }
    }
}

extension FileFollower.Lane {
    /// Queues what a poll read and updates the row.
    fileprivate mutating func take(_ batch: FileTailer.Batch) {
        failures = 0
        caughtUp = !batch.more
        for (offset, event) in batch.events.enumerated() {
            queue.append((event, offset < batch.countedBefore))
        }
        queued += batch.events.count
        if let mark = batch.mark, mark != lastMark {
            marks.append((queued, mark))
            lastMark = mark
        }
        guard !batch.isEmpty || status.health == .failing else { return }
        let statistics = tailer.statistics
        status.events = statistics.events
        status.badLines = Int(statistics.badLines)
        if let problem = batch.badLines.last { status.lastProblem = problem.description }
        status.health = statistics.badLines > 0 ? .degraded : .ok
        var state = batch.rotated ? "following (rotated)" : batch.truncated ? "following (truncated)" : "following"
        if statistics.countedBefore > 0 {
            state += " · \(Format.count(statistics.countedBefore)) read before, not counted again"
        }
        status.state = state
        if !batch.events.isEmpty { status.lastEventAt = Date() }
        statusChanged = true
    }

    /// A poll failed: the file is retried after the backoff, and its row says why.
    fileprivate mutating func fail(_ error: any Error, now: ErasedClock.Instant) {
        failures += 1
        let delay = FileFollower.backoff.delay(afterAttempt: failures, random: 0)
        retryAt = now.advanced(by: delay)
        status.state = "retrying in \(Format.seconds(delay))"
        status.health = .failing
        status.lastProblem = "\(error)"
        statusChanged = true
    }
}

extension FileFollower {
    /// Stops following and waits for the last batch to be ingested.
    func stop() async {
        guard let running = task.withLock({ $0 }) else { return }
        running.cancel()
        await running.value
    }
}
