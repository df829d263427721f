import ErrorStreaming
import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads events from a stream that cannot be polled like a file: standard input (`producer | errorwatch -`) or a
/// named pipe (`--tail FIFO`). Lines go through a ``LineReader``, so any log shape is understood.
///
/// ``run(_:)`` blocks its thread (never a task of the cooperative pool) until the stream ends or ``stop()``; it
/// waits in `poll` for at most ``pollInterval``, so a stop takes effect within that, whatever the writer does. A
/// line held by the reader (it may be followed by a trace) is handed on when the stream is quiet for one interval.
/// A named pipe opened before any writer is followed until a writer has come and gone.
///
/// ```swift
/// let reader = StreamReader(descriptor: STDIN_FILENO, format: .auto)
/// Thread { reader.run { batch in show(batch.events) } }.start()
/// reader.stop()
/// ```
public final class StreamReader: Sendable {
    /// What one read found.
    public struct Batch: Sendable, Equatable {
        /// Good events, in stream order.
        public var events: [WireEvent] = []
        /// Lines that could not be read as events.
        public var badLines: [WireError] = []
        /// Whether the stream ended (its writer closed it).
        public var ended = false
    }

    /// Why a stream ended.
    public enum Ending: Sendable, Equatable {
        /// The writer closed it.
        case endOfInput
        /// ``stop()`` was called.
        case stopped
        /// Reading failed; the associated text says why (`permission denied`).
        case failed(String)
    }

    /// How long `poll` waits before checking for a stop and handing on a held line.
    public let pollInterval: Duration
    /// The most bytes read per system call; also the most framed per batch.
    public static let chunkBytes = 64 * 1024

    private let descriptor: Int32
    private let closeWhenDone: Bool
    private let waitsForWriter: Bool
    private let stopped = Atomic<Bool>(false)
    private let format: LogFormat
    private let now: @Sendable () -> Date

    /// Reads `descriptor` (not closed when done unless `closeWhenDone`).
    public init(
        descriptor: Int32, format: LogFormat = .auto, closeWhenDone: Bool = false,
        pollInterval: Duration = .milliseconds(100), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.descriptor = descriptor
        self.format = format
        self.closeWhenDone = closeWhenDone
        self.pollInterval = pollInterval
        self.now = now
        self.waitsForWriter = false
    }

    private init(fifo descriptor: Int32, format: LogFormat, pollInterval: Duration) {
        self.descriptor = descriptor
        self.format = format
        self.closeWhenDone = true
        self.pollInterval = pollInterval
        self.now = { Date() }
        self.waitsForWriter = true
    }

    /// Opens a named pipe for reading without waiting for a writer (a plain `open` would block until one came).
    public static func openFIFO(path: String, format: LogFormat = .auto) throws(FileProblem) -> StreamReader {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileProblem(path: path, errno: errno, doing: "open") }
        return StreamReader(fifo: descriptor, format: format, pollInterval: .milliseconds(100))
    }

    /// Asks ``run(_:)`` to return; it does within ``pollInterval``.
    public func stop() { stopped.store(true, ordering: .releasing) }

    /// Reads until the stream ends, ``stop()`` is called or reading fails, handing every non-empty batch to `body`
    /// (the last one with ``Batch/ended`` set when the stream ended). Blocks the calling thread.
    @discardableResult
    public func run(_ body: (Batch) -> Void) -> Ending {
        defer { if closeWhenDone { close(descriptor) } }
        var framer = LineFramer()
        // A live stream: a line without a time of its own was written about when it was read.
        var reader = LineReader(format: format, inheritingTimes: false)
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        var sawData = false
        let timeout = Int32(clamping: pollInterval.wholeMilliseconds())
        while !stopped.load(ordering: .acquiring) {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(FileProblem.reason(errno))
            }
            if ready == 0 || fds[0].revents == 0 {
                var batch = Batch()
                reader.flush { Self.add($0, to: &batch) }
                if batch != Batch() { body(batch) }
                continue
            }
            var count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                // A pseudo-terminal whose other side every writer closed (a child that exited) reads EIO: its end.
                guard errno == EIO else { return .failed(FileProblem.reason(errno)) }
                count = 0
            }
            if count == 0 {
                // A named pipe nobody has written to yet reads as ended: keep waiting for the first writer.
                if waitsForWriter, !sawData {
                    var idle = [pollfd(fd: -1, events: 0, revents: 0)]
                    _ = poll(&idle, 1, timeout)
                    continue
                }
                var batch = Batch()
                if let rest = framer.finish() { Self.readFrame(rest, with: &reader, at: now(), into: &batch) }
                reader.flush { Self.add($0, to: &batch) }
                batch.ended = true
                body(batch)
                return .endOfInput
            }
            sawData = true
            var batch = Batch()
            let received = now()
            chunk.withUnsafeBytes { bytes in
                framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { frame in
                    switch frame {
                    case .line(let line): reader.read(line, receivedAt: received) { Self.add($0, to: &batch) }
                    case .tooLong(let size): batch.badLines.append(.lineTooLong(byteCount: size))
                    }
                }
            }
            if batch != Batch() { body(batch) }
        }
        return .stopped
    }

    private static func readFrame(
        _ frame: Result<[UInt8], WireError>, with reader: inout LineReader, at time: Date, into batch: inout Batch
    ) {
        switch frame {
        case .success(let line): line.withUnsafeBytes { reader.read($0, receivedAt: time) { add($0, to: &batch) } }
        case .failure(let error): batch.badLines.append(error)
        }
    }

    private static func add(_ result: consuming Result<WireEvent, WireError>, to batch: inout Batch) {
        switch consume result {
        case .success(let event): batch.events.append(event)
        case .failure(let error): batch.badLines.append(error)
        }
    }
}

