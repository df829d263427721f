import DequeModule
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import HeapModule
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
/// Pace: a file is read a piece (``FileTailer/maximumBytesPerPoll``) at a time. The next piece is read (and its
/// lines decoded, on a second core) while the merge hands on the events of the pieces read before, and only while
/// the file's queue holds less than the look-ahead or than its last piece brought, so reading goes at the pace
/// events are ingested, in the memory of about two pieces (or the look-ahead and a piece); a piece that ended no
/// line at all (a `.gz` bomb of one endless line) ends the file's turn until the next interval, so such a file
/// costs one piece of work per interval. A stop is answered between two pieces.
///
/// A file that cannot be read (its permission was taken away, a disk error) is retried with ``backoff`` (500 ms,
/// doubling, at most 8 s; reset by the next batch read), and its row says so, rather than followed no more; the
/// others go on without waiting for it.
///
/// Descriptors are a budget (``descriptorBudget``): at most that many files are open at once, so ten thousand
/// files on the command line never take the descriptors the rest of the process needs. The files beyond it wait
/// their turn, in order, and their rows say `waiting`; a file read to its end gives its descriptor back when another
/// waits (``FileTailer/releaseDescriptor()`` keeps its place) and is checked for new lines again in turns, at most
/// ``descriptorBudget`` such checks per interval. Files read in turns are merged by time only with the files open
/// beside them. Under the budget, every file keeps its descriptor and is followed as `tail -F` follows.
final class FileFollower: Sendable {
    private let tailers: [FileTailer]
    private let interval: Duration
    /// The most files open at once.
    let descriptorBudget: Int
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The delays between attempts to read a file that failed.
    static let backoff = Backoff(initial: .milliseconds(500), multiplier: 2, maximum: .seconds(8), jitter: 0)
    /// The most events read ahead of the merge from one file: a file is not polled while its queue holds this many.
    static let lookahead = 4_096

    /// A follower of `tailers`, checking for new lines every `interval`, with at most `descriptorBudget` of them open
    /// at once (by default, ``descriptorBudget(limit:)`` of the process's limit).
    init(tailers: [FileTailer], interval: Duration, descriptorBudget: Int? = nil) {
        self.tailers = tailers
        self.interval = interval
        self.descriptorBudget = max(1, descriptorBudget ?? Self.descriptorBudget(limit: Self.descriptorLimit()))
    }

    /// How many files may be open at once when the process may hold `limit` descriptors: half of them, leaving at
    /// least 256 for everything else (the listeners' connections, the store, the terminal), and never fewer than 4.
    /// At the common limit of 1,024 that is 512.
    static func descriptorBudget(limit: Int) -> Int { max(4, min(limit / 2, limit - 256)) }

    /// The process's soft limit on open descriptors (`ulimit -n`).
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// One file in the merge.
    fileprivate struct Lane {
        let tailer: FileTailer
        let from: String
        var status: SourceStatus
        /// Events read and not yet handed on, each with whether an earlier reading counted it.
        var queue = PieceQueue()
        /// Whether the last poll read to the end of what the file holds now.
        var caughtUp = false
        /// How many events the last poll read.
        var lastRead = 0
        /// Events queued and handed on since the start, and the marks to record once enough are handed on.
        var queued = 0
        var handedOn = 0
        var marks: Deque<(after: Int, mark: FileMark)> = []
        /// The last mark queued: a poll that found nothing new makes the same again, which is not recorded again.
        var lastMark: FileMark?
        var failures = 0
        var retryAt: ErasedClock.Instant?
        var statusChanged = true
        /// Whether it holds one of the budget's descriptors (it is polled only then).
        var holdsTurn = false
        /// Whether it was read to its end once: it is then checked again in turns, not read for the first time.
        var readBefore = false
        /// The interval in which it last had a turn.
        var turnEpoch = -1

        init(_ tailer: FileTailer) {
            self.tailer = tailer
            from = "file " + tailer.path
            status = SourceStatus(
                id: "file:" + tailer.path, kind: .file, name: (tailer.path as NSString).lastPathComponent,
                detail: tailer.path, state: "following", health: .ok)
        }

        /// Whether a next piece may be read: while fewer than ``FileFollower/lookahead`` events wait, or no more than
        /// the last piece brought (one piece is handed on while the next is read, so short lines are not read one
        /// piece at a time).
        var hasRoom: Bool { queue.count < FileFollower.lookahead || queue.count <= lastRead }

        /// Whether the merge must wait for this file before handing on a later event of another: one waiting for its
        /// turn does not hold the others back.
        var blocks: Bool { queue.isEmpty && blocksWhenEmpty }

        /// Whether the merge must wait for this file once its queue is empty: it holds its turn, has not read to the
        /// end of what the file holds, and is not waiting to retry.
        var blocksWhenEmpty: Bool { holdsTurn && !caughtUp && retryAt == nil }
    }

    /// A file's events read and not yet handed on, kept as the pieces they were read in: an event is handed on
    /// where its piece holds it, not copied into a queue of its own first (an event has forty members, about 25
    /// of them counted references, so each copy and release showed in the profile of a file's opening).
    fileprivate struct PieceQueue {
        /// The piece being handed on, last event first, so that the next is moved out of it by `removeLast()`:
        /// reading it out of the array would copy it, and the piece would release it again later.
        private var head: [WireEvent] = []
        /// How many events the piece being handed on had, and how many of its first an earlier reading counted.
        private var headLength = 0
        private var headCounted = 0
        /// The pieces after it, oldest first, in file order: a piece is turned around when its turn comes, once
        /// the batch it was read in is released and the queue holds the only reference to it.
        private var rest: Deque<(events: [WireEvent], countedBefore: Int)> = []
        /// How many events wait.
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        /// A place in the queue, to look ahead without taking (``time(at:)``, ``advance(_:)``): a piece (0 the one
        /// being handed on, then ``rest``'s) and how many events of it come before.
        struct Cursor {
            fileprivate var piece: Int
            fileprivate var index: Int
        }

        /// The place of the next event.
        var start: Cursor { Cursor(piece: head.isEmpty ? 1 : 0, index: 0) }

        /// Queues a piece's events; the first `countedBefore` of them were counted by an earlier reading.
        mutating func append(_ events: [WireEvent], countedBefore: Int) {
            guard !events.isEmpty else { return }
            rest.append((events, countedBefore))
            count += events.count
        }

        /// The time of the event at `cursor`, which must be before the end.
        func time(at cursor: Cursor) -> Date {
            // Member by member, where the piece holds the event: reading the whole event out of the array would copy
            // it (every counted reference retained, then released) for the sake of one member.
            read(cursor) { events, index in events[index].time }
        }

        /// Whether the event at `cursor` shows in the `Logs` pane (``RemoteIngest/showsInLogs(_:)``).
        func showsInLogs(at cursor: Cursor) -> Bool {
            read(cursor) { events, index in
                RemoteIngest.showsInLogs(kind: events[index].kind, typed: events[index].exceptionType != nil)
            }
        }

        /// `body` of the buffer holding the event at `cursor` and its index there.
        private func read<Value>(_ cursor: Cursor, _ body: (UnsafeBufferPointer<WireEvent>, Int) -> Value) -> Value {
            if cursor.piece == 0 {
                return head.withUnsafeBufferPointer { body($0, $0.count - 1 - cursor.index) }
            }
            return rest[cursor.piece - 1].events.withUnsafeBufferPointer { body($0, cursor.index) }
        }

        /// Moves `cursor` to the next event.
        func advance(_ cursor: inout Cursor) {
            cursor.index += 1
            if cursor.index == (cursor.piece == 0 ? head.count : rest[cursor.piece - 1].events.count) {
                cursor.piece += 1
                cursor.index = 0
            }
        }

        /// Calls `body` with the next event and whether an earlier reading counted it, then drops it. The queue must
        /// not be empty.
        mutating func handFirst(_ body: (WireEvent, Bool) -> Void) {
            if head.isEmpty, let piece = rest.popFirst() {
                (head, headLength, headCounted) = (piece.events, piece.events.count, piece.countedBefore)
                // Through the buffer: its `swapAt` moves the events, where the array's copies each one twice.
                head.withUnsafeMutableBufferPointer { $0.reverse() }
            }
            let counted = headLength - head.count < headCounted
            body(head.removeLast(), counted)
            count -= 1
        }
    }

    /// Who holds the budget's descriptors and who waits for one, in order.
    fileprivate struct Turns {
        let budget: Int
        var waiting: Deque<Int>
        var open = 0
        /// Counts the intervals slept: a file read before is checked at most once per interval.
        var epoch = 0
        /// Files read before given a turn in this interval: at most ``budget``.
        var checksThisEpoch = 0

        init(budget: Int, count: Int) {
            self.budget = budget
            waiting = Deque(0..<count)
        }

        /// Gives free descriptors to waiting files whose turn it is, in order; returns whether any was given.
        mutating func admit(_ lanes: inout [Lane], now: ErasedClock.Instant) -> Bool {
            var admitted = false
            var looked = 0
            let count = waiting.count
            while open < budget, looked < count, let index = waiting.popFirst() {
                looked += 1
                let lane = lanes[index]
                let retryDue = lane.retryAt.map { now >= $0 } ?? true
                let due = !lane.readBefore || (lane.turnEpoch < epoch && checksThisEpoch < budget)
                guard retryDue, due else {
                    waiting.append(index)
                    continue
                }
                if lane.readBefore { checksThisEpoch += 1 }
                lanes[index].holdsTurn = true
                lanes[index].turnEpoch = epoch
                lanes[index].caughtUp = false
                open += 1
                admitted = true
                if lanes[index].status.state.hasPrefix("waiting") {
                    lanes[index].status.state = "following"
                    lanes[index].status.waitsForTurn = false
                    lanes[index].statusChanged = true
                }
            }
            return admitted
        }

        /// While files wait, those read to their end (or failing, until their retry) give their descriptors back
        /// and queue again. One that holds an event back (its last line, which a trace may follow) is polled again
        /// at once first, which hands it on; returns whether there is such a file.
        mutating func release(_ lanes: inout [Lane]) -> Bool {
            guard !waiting.isEmpty else { return false }
            var again = false
            for index in lanes.indices where lanes[index].holdsTurn && lanes[index].caughtUp {
                guard lanes[index].retryAt == nil, lanes[index].tailer.holdsEvent else { continue }
                lanes[index].caughtUp = false
                again = true
            }
            for index in lanes.indices
            where lanes[index].holdsTurn && (lanes[index].caughtUp || lanes[index].retryAt != nil) {
                lanes[index].tailer.releaseDescriptor()
                lanes[index].holdsTurn = false
                lanes[index].readBefore = lanes[index].readBefore || lanes[index].caughtUp
                open -= 1
                waiting.append(index)
            }
            return again
        }

        /// An interval was slept: files read before may be checked again.
        mutating func slept() {
            epoch += 1
            checksThisEpoch = 0
        }
    }

    /// Starts following on the runtime's clock.
    func start(into ingest: RemoteIngest, clock: ErasedClock) {
        let tailers = self.tailers
        let interval = self.interval
        guard !tailers.isEmpty else { return }
        let budget = descriptorBudget
        let started = Task {
            var lanes = tailers.map(Lane.init)
            var turns = Turns(budget: budget, count: lanes.count)
            _ = turns.admit(&lanes, now: clock.now)
            for index in turns.waiting {
                lanes[index].status.state = "waiting: \(Format.count(budget)) files open at once (descriptor budget)"
                lanes[index].status.waitsForTurn = true
            }
            ingest.update(lanes.map(\.status))
            // Whether the last round read a file that has more: only then are files read to their end read again
            // at once (as they were between two pieces of the others); otherwise at the next interval.
            var readOn = true
            while !Task.isCancelled {
                var more = turns.admit(&lanes, now: clock.now)
                var reads: [(index: Int, tailer: FileTailer)] = []
                for index in lanes.indices where lanes[index].holdsTurn {
                    guard lanes[index].hasRoom else {
                        more = true
                        continue
                    }
                    if lanes[index].caughtUp, !readOn { continue }
                    if let retry = lanes[index].retryAt {
                        guard clock.now >= retry else { continue }
                        lanes[index].retryAt = nil
                    }
                    reads.append((index, lanes[index].tailer))
                }
                // The next pieces are read and decoded on one core while the events read before are handed on on
                // the other: the merge waits only for a file whose queue is empty and which is not at its end.
                if reads.isEmpty {
                    Self.handOn(&lanes, to: ingest)
                } else {
                    async let read = Self.read(reads)
                    Self.handOn(&lanes, to: ingest)
                    let results = await read
                    // A stop is answered between two pieces, not after a round of every open file.
                    if Task.isCancelled { return }
                    for (index, result) in results {
                        switch result {
                        case .success(let batch):
                            lanes[index].take(batch)
                            if batch.more, batch.events.isEmpty, batch.badLines.isEmpty {
                                // A whole piece without a line ended (a bomb of one endless line): the rest is read
                                // a piece per interval, and the file holds nobody back meanwhile.
                                lanes[index].caughtUp = true
                            } else {
                                more = more || batch.more
                            }
                        case .failure(let error):
                            lanes[index].fail(error, now: clock.now)
                        }
                    }
                }
                readOn = more
                more = turns.release(&lanes) || more
                more = turns.admit(&lanes, now: clock.now) || more
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
                    turns.slept()
                    readOn = true
                }
            }
        }
        task.withLock { $0 = started }
    }

    /// Reads the next piece of each of `reads`, in order, until the task is cancelled.
    fileprivate static func read(
        _ reads: [(index: Int, tailer: FileTailer)]
    ) -> [(index: Int, result: Result<FileTailer.Batch, any Error>)] {
        var results: [(index: Int, result: Result<FileTailer.Batch, any Error>)] = []
        for read in reads {
            if Task.isCancelled { break }
            results.append((read.index, Result { try read.tailer.poll() }))
        }
        return results
    }

    /// Hands on the queued events in time order while no file that may still hold an earlier one is waited for,
    /// then records the marks the handed-on events reached. The earliest head is kept in a heap, so each event costs
    /// a logarithm of the files, however many there are.
    ///
    /// The order is found first, without taking any event: which file each event handed on comes from. So the batch
    /// knows how many of them show in the `Logs` pane before it starts, and those that would give way to later ones
    /// of the same batch are counted as given way without being kept (``RemoteIngest/Batch/passOver(_:)``).
    fileprivate static func handOn(_ lanes: inout [Lane], to ingest: RemoteIngest) {
        var blocking = 0
        var heads = Heap<Head>()
        var cursors = lanes.map(\.queue.start)
        var left = lanes.map(\.queue.count)
        for index in lanes.indices {
            if lanes[index].blocks { blocking += 1 }
            if left[index] > 0 {
                heads.insert(Head(time: lanes[index].queue.time(at: cursors[index]), lane: index))
            }
        }
        var order: [Int] = []
        var shown = 0
        while blocking == 0, let head = heads.popMin() {
            let index = head.lane
            if lanes[index].queue.showsInLogs(at: cursors[index]) { shown += 1 }
            order.append(index)
            left[index] -= 1
            if left[index] > 0 {
                lanes[index].queue.advance(&cursors[index])
                heads.insert(Head(time: lanes[index].queue.time(at: cursors[index]), lane: index))
            } else if lanes[index].blocksWhenEmpty {
                blocking += 1
            }
        }
        // One batch: what the events show in the Logs pane is posted in one step.
        ingest.ingestBatch { batch in
            batch.passOver(shown - batch.capacity)
            for (handed, index) in order.enumerated() {
                // Stopping is answered within a thousand events; what is not handed on is not marked read.
                if handed % 1_024 == 1_023, Task.isCancelled { break }
                let from = lanes[index].from
                lanes[index].queue.handFirst { event, counted in
                    ingest.ingest(event, from: from, channel: .file, countedBefore: counted, into: &batch)
                }
                lanes[index].handedOn += 1
            }
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

    /// The event at the head of a file's queue: the earliest first, the first file on a tie.
    fileprivate struct Head: Comparable {
        var time: Date
        var lane: Int

        static func < (left: Head, right: Head) -> Bool { (left.time, left.lane) < (right.time, right.lane) }
    }
}

extension FileFollower.Lane {
    /// Queues what a poll read and updates the row.
    fileprivate mutating func take(_ batch: FileTailer.Batch) {
        failures = 0
        caughtUp = !batch.more
        lastRead = batch.events.count
        queue.append(batch.events, countedBefore: batch.countedBefore)
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
