import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Follows standard input or a named pipe for the dashboard: a ``StreamReader`` on a thread of its own (its reads
/// block, so never on the cooperative pool the feeds need), its events into the ingest, its row in the Sources pane.
///
/// ``stop()`` returns within the reader's poll interval whatever the writer does, so `q` always exits promptly even
/// while a producer keeps the pipe open without writing.
final class PipeFollower: Sendable {
    private let reader: StreamReader
    private let status: Mutex<SourceStatus>
    private let finished = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A follower of `reader`, shown as `name` (`stdin`, the pipe's file name) with `detail`.
    init(reader: StreamReader, id: String, name: String, detail: String) {
        self.reader = reader
        status = Mutex(SourceStatus(id: id, kind: .pipe, name: name, detail: detail, state: "reading", health: .ok))
    }

    /// Starts reading on a new thread.
    func start(into ingest: RemoteIngest) {
        let from = status.withLock { "pipe " + $0.name }
        ingest.update(status.withLock { $0 })
        let thread = Thread { [self] in
            let ending = reader.run { batch in
                ingest.ingestBatch { shown in
                    for event in batch.events { ingest.ingest(event, from: from, channel: .pipe, into: &shown) }
                }
                let row = status.withLock { row in
                    row.events += UInt64(batch.events.count)
                    row.badLines += batch.badLines.count
                    if let problem = batch.badLines.last { row.lastProblem = problem.description }
                    if !batch.events.isEmpty { row.lastEventAt = Date() }
                    row.health = row.badLines > 0 ? .degraded : .ok
                    return row
                }
                ingest.update(row)
            }
            let row = status.withLock { row in
                switch ending {
                case .endOfInput:
                    row.state = "ended (end of input)"
                    row.health = .idle
                case .stopped:
                    row.state = "stopped"
                case .failed(let reason):
                    row.state = "stopped: \(reason)"
                    row.health = .failing
                    row.lastProblem = reason
                }
                return row
            }
            ingest.update(row)
            let waiters = finished.withLock { state in
                state.done = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "errorwatch " + from
        thread.start()
    }

    /// Stops reading and waits for the thread to finish (within the reader's poll interval).
    func stop() async {
        reader.stop()
        await withCheckedContinuation { continuation in
            let done = finished.withLock { state in
                if !state.done { state.waiters.append(continuation) }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
