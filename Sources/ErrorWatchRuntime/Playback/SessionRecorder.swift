import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Logging
import Synchronization

/// `--record FILE`: writes every event the dashboard shows to an NDJSON recording that `errorwatch replay` and
/// `errorwatch render --from` play back.
///
/// Local errors are read from their own unbounded subscription to the stream (so none is missed); events that
/// arrived from outside are written as they arrived, exactly; log lines are written as they are logged.
public final class SessionRecorder: Sendable {
    private let recorder: RecordingWriter
    private let encoder: WireEncoder
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let handlingTask = Mutex<Task<Void, Never>?>(nil)
    private let flusher = Mutex<Task<Void, Never>?>(nil)
    private let failure = Mutex<String?>(nil)

    /// Opens (creates or appends to) `path`.
    public init(path: String, source: SourceInfo) throws {
        recorder = try RecordingWriter(path: path)
        encoder = WireEncoder(source: source)
    }

    /// Subscribes to `stream` now and writes its local errors, and how the handler tree dealt with them, until
    /// ``stop()``. `now` stamps the handling lines on the same clock as the errors, so a replay keeps their order.
    public func start(stream: ErrorStream, now: @escaping @Sendable () -> Date = { Date() }) {
        let events = stream.events(bufferingPolicy: .unbounded)
        let started = Task { [self] in
            for await event in events where event.context.remote == nil {
                write(encoder.wireEvent(for: event))
            }
        }
        task.withLock { $0 = started }
        // How the handler tree dealt with local errors travels with them, joined on replay by sequence number.
        let reports = stream.handlingReports(bufferingPolicy: .unbounded)
        let reporting = Task { [self] in
            for await report in reports { write(encoder.handlingEvent(for: report, time: now())) }
        }
        handlingTask.withLock { $0 = reporting }
        // At most a second of events is ever only in memory: a crash keeps everything older, which is the part of
        // a session a bug report needs.
        let flushing = Task { [recorder] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                try? recorder.flush()
            }
        }
        flusher.withLock { $0 = flushing }
    }

    /// Writes an event that arrived from outside, as it arrived.
    public func record(_ event: WireEvent) { write(event) }

    /// Writes a local log record.
    public func record(_ log: DashboardLogHandler.Record) {
        write(
            encoder.wireEvent(
                level: log.level, message: log.message, label: log.label, metadata: log.metadata, error: log.error,
                time: log.timestamp))
    }

    /// Writes a status an attached app published.
    public func record(_ status: StatusEntry) {
        write(
            encoder.statusEvent(
                name: status.name, state: status.state, health: status.health,
                detail: status.detail.isEmpty ? nil : status.detail, time: status.changedAt))
    }

    private func write(_ event: WireEvent) {
        do {
            try recorder.append(event)
        } catch {
            failure.withLock { $0 = $0 ?? "recording failed: \(error)" }
        }
    }

    /// Events written so far.
    public var recordedCount: UInt64 { recorder.recordedCount }

    /// The first write error, if any (the disk filled up, say); recording stops being complete after it.
    public var problem: String? { failure.withLock { $0 } }

    /// Stops the subscription once it has written what was added before, flushes and closes the file.
    public func stop() async {
        let running = task.withLock { $0 }
        await running?.value
        await handlingTask.withLock { $0 }?.value
        flusher.withLock { $0 }?.cancel()
        try? recorder.flush()
        try? recorder.close()
    }
}
