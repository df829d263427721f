import Foundation

/// Whether an OTLP request is admitted: the rule behind ``RemoteIngest/hasRoom(for:)``, as a pure state machine
/// fed what the ``ActionInbox`` holds and the time.
///
/// Counting does not depend on the inbox (errors are counted as they are added to the stream, and each source's
/// row as its batch is delivered), and every queue between the stream and the screen is bounded and samples what
/// it cannot show (the inbox and the Logs subscription keep 2,048 events each). A full inbox is therefore normal
/// under load and costs nothing; refusing then only capped the rate at what one frame shows. What does matter is
/// the UI thread falling behind: ingest runs on the receiver's event loops, and when they take the cores the UI
/// stops drawing and stops answering keys. So a request is refused (`503` with `Retry-After`) only while the
/// inbox has held something undrained for longer than ``stallLimit``: the UI has missed several frames in a row.
/// The refused SDKs back off, the cores go back to the UI, it drains, and requests are admitted again.
///
/// The stall is measured from the first time a request saw the current arrival waiting (the inbox says how many
/// times it went from empty to non-empty), so it may start late by the gap between two requests, never early.
struct IngestAdmission: Sendable {
    /// How long the UI may leave the inbox undrained before requests are refused.
    let stallLimit: TimeInterval
    /// The arrival being watched and when a request first saw it waiting.
    private var watched: (arrival: UInt64, since: Date)?

    init(stallLimit: TimeInterval) {
        self.stallLimit = stallLimit
    }

    /// Whether to admit a request now, given what the inbox holds.
    mutating func admits(_ backlog: ActionInbox.Backlog, at now: Date) -> Bool {
        guard backlog.waiting else {
            watched = nil
            return true
        }
        guard let watched, watched.arrival == backlog.arrival else {
            self.watched = (backlog.arrival, now)
            return true
        }
        return now.timeIntervalSince(watched.since) < stallLimit
    }
}
