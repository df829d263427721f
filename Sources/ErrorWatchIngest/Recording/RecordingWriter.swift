import ErrorStreaming
import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Appends wire events to an NDJSON file: buffered in memory, written when the buffer fills or on ``flush()``.
///
/// The recording is itself a valid feed: ``FileTailer`` can follow it and ``RecordingReader`` replays it.
///
/// ```swift
/// let recorder = try RecordingWriter(path: "/tmp/session.ndjson")
/// try recorder.append(event)
/// try recorder.close()
/// ```
public final class RecordingWriter: Sendable {
    private struct State {
        var handle: FileHandle?
        var buffer: [UInt8] = []
        var recorded: UInt64 = 0
    }

    /// The file written.
    public let path: String
    /// Bytes collected before they are written to the file.
    public let bufferCapacity: Int
    private let state: Mutex<State>
    private let encoder: WireEncoder = {
        var encoder = WireEncoder()
        // Room for an error's report; ``fitted(_:encoder:)`` keeps every line within it.
        encoder.maximumLineBytes = Int.max
        return encoder
    }()

    /// Opens `path` for appending, creating it (mode 0600) if needed. Throws a ``FileProblem`` that says why not
    /// in one sentence (`cannot write the recording to /tmp: is a directory`).
    public init(path: String, bufferCapacity: Int = 64 * 1024) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileProblem(path: path, errno: errno, doing: "write the recording to") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw FileProblem(path: path, doing: "write the recording to", reason: "it is not a regular file")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.path = path
        self.bufferCapacity = bufferCapacity
        self.state = Mutex(State(handle: handle))
    }

    /// Events appended so far.
    public var recordedCount: UInt64 { state.withLock { $0.recorded } }

    /// Appends one event; writes the buffer to the file when it is full. An error's report that would make the line
    /// longer than a reader takes (``RecordingFile/maximumLineBytes``) is recorded with less, the report saying so.
    public func append(_ event: WireEvent) throws {
        let line = try Self.fitted(event, encoder: encoder)
        try state.withLock { state in
            state.buffer.append(contentsOf: line)
            state.recorded += 1
            if state.buffer.count >= bufferCapacity { try Self.write(&state) }
        }
    }

    /// Writes buffered events to the file.
    public func flush() throws {
        try state.withLock { try Self.write(&$0) }
    }

    /// Flushes and closes the file; later appends throw.
    public func close() throws {
        try state.withLock { state in
            try Self.write(&state)
            try state.handle?.close()
            state.handle = nil
        }
    }

    /// `event`'s line, within ``RecordingFile/maximumLineBytes`` (else ``WireError/lineTooLong(byteCount:)``): when
    /// its report makes it longer, the report loses
    /// first its contexts, user, request and breadcrumbs' data, then its source lines, variables and breadcrumbs, then
    /// everything but what was cut, each step noted in the report's `cut`.
    static func fitted(_ event: WireEvent, encoder: WireEncoder) throws -> [UInt8] {
        let line = try encoder.encode(event)
        guard line.count > RecordingFile.maximumLineBytes else { return line }
        guard let full = event.report else { throw WireError.lineTooLong(byteCount: line.count) }
        let note = "this report was \(line.count) bytes, over the recording's line limit of "
            + "\(RecordingFile.maximumLineBytes): recorded without "
        var report = full
        var event = event
        report.contexts = []
        report.user = []
        report.request = []
        for index in report.breadcrumbs.indices { report.breadcrumbs[index].data = [] }
        report.cut.append(note + "contexts, user, request and breadcrumb data")
        event.report = report
        var shorter = try encoder.encode(event)
        if shorter.count <= RecordingFile.maximumLineBytes { return shorter }
        report.breadcrumbs = []
        for exception in report.exceptions.indices {
            for frame in report.exceptions[exception].frames.indices {
                report.exceptions[exception].frames[frame].preContext = []
                report.exceptions[exception].frames[frame].postContext = []
                report.exceptions[exception].frames[frame].variables = []
            }
        }
        report.cut[report.cut.count - 1] = note + "contexts, user, request, breadcrumbs, source lines and variables"
        event.report = report
        shorter = try encoder.encode(event)
        if shorter.count <= RecordingFile.maximumLineBytes { return shorter }
        event.report = ExceptionReport(cut: Array(full.cut.suffix(20)) + [note + "any of it"])
        shorter = try encoder.encode(event)
        guard shorter.count <= RecordingFile.maximumLineBytes else {
            throw WireError.lineTooLong(byteCount: shorter.count)
        }
        return shorter
    }

    private static func write(_ state: inout State) throws {
        guard !state.buffer.isEmpty else { return }
        guard let handle = state.handle else { throw FileProblem(path: "", doing: "write", reason: "it was closed") }
        do {
            try handle.write(contentsOf: state.buffer)
        } catch {
            let code = (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : EIO
            throw FileProblem(path: "the recording", errno: code, doing: "write")
        }
        state.buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        try? close()
    }
}
