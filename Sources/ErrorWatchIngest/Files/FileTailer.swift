import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Follows a growing log file, like `tail -F`: reads new lines in any shape a ``LineReader`` knows (our NDJSON,
/// the common JSON loggers, plain text with traces), and notices truncation and rotation.
///
/// Each poll reads at most ``maximumBytesPerPoll``; ``Batch/more`` says the file has more, and ``run(every:clock:_:)``
/// polls again at once, so a file that grew by hundreds of megabytes is read in bounded pieces rather than held
/// whole. A line held by the reader (a trace may follow it) is handed on at the first poll that finds nothing new.
///
/// Each ``poll()`` reads what was appended since the last one. A file that got shorter was truncated: reading
/// starts again at its beginning. A path that names a different file (another inode) was rotated: the old file
/// is read to its end, then the new one from its beginning. A missing file is waited for.
/// ``run(every:clock:_:)`` polls on an injected clock; tests call ``poll()`` directly.
///
/// ```swift
/// let tailer = FileTailer(path: "/var/log/app.ndjson", from: .end)
/// try await tailer.run(every: .milliseconds(250), clock: ContinuousClock()) { batch in show(batch.events) }
/// ```
public final class FileTailer: Sendable {
    /// Where to start in a file that exists when tailing begins.
    public enum StartPosition: Sendable, Hashable {
        /// Read the whole file first.
        case beginning
        /// Read only what is appended from now on.
        case end
        /// Read the file's last `count` lines first (fewer when it has fewer), then what is appended.
        case lastLines(Int)
    }

    /// What one poll found.
    public struct Batch: Sendable, Equatable {
        /// Good events, in file order.
        public var events: [WireEvent] = []
        /// Lines that could not be decoded.
        public var badLines: [WireError] = []
        /// Whether the file was truncated since the last poll.
        public var truncated = false
        /// Whether the path was rotated to a new file since the last poll.
        public var rotated = false
        /// Whether the poll stopped at ``FileTailer/maximumBytesPerPoll`` with more of the file unread.
        public var more = false
    }

    /// Totals since tailing began.
    public struct Statistics: Sendable, Hashable {
        /// Good events read.
        public var events: UInt64 = 0
        /// Bad lines read.
        public var badLines: UInt64 = 0
        /// Truncations noticed.
        public var truncations: UInt64 = 0
        /// Rotations noticed.
        public var rotations: UInt64 = 0
    }

    private struct OpenFile {
        var descriptor: Int32
        var device: UInt64
        var inode: UInt64
        var offset: Int64
        /// The inflater of a `.gz` file, read once from its beginning (a compressed file is not appended to).
        var gzip: GzipStream?
    }

    private struct State {
        var file: OpenFile?
        var framer = LineFramer()
        var reader: LineReader
        var statistics = Statistics()
        /// Where the first opening starts; later openings (after a rotation) start at the beginning.
        var start: StartPosition
    }

    /// The file followed.
    public let path: String
    private let state: Mutex<State>
    private let now: @Sendable () -> Date

    /// The most bytes one poll reads.
    public static let maximumBytesPerPoll = 1024 * 1024

    /// Creates a tailer reading lines as `format`; nothing is read until the first poll. `now` stamps lines that
    /// carry no time of their own.
    public init(
        path: String, from start: StartPosition = .beginning, format: LogFormat = .auto,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = path
        self.now = now
        self.state = Mutex(State(reader: LineReader(format: format), start: start))
    }

    /// Totals so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Reads what is new. Throws only for I/O errors other than a missing file.
    public func poll() throws -> Batch {
        try state.withLock { state in
            var batch = Batch()
            if state.file == nil {
                guard let opened = try openFile(from: state.start) else { return batch }
                state.file = opened
            }
            state.start = .beginning
            guard var file = state.file else { return batch }
            var info = stat()
            guard fstat(file.descriptor, &info) == 0 else { throw FileProblem(path: path, errno: errno, doing: "read") }
            if Int64(info.st_size) < file.offset {
                file.offset = 0
                state.framer.reset()
                batch.truncated = true
                state.statistics.truncations += 1
            }
            try read(&file, into: &batch, state: &state)
            state.file = file
            if batch.more { return batch }
            var current = stat()
            if stat(path, &current) == 0, UInt64(current.st_ino) != file.inode || UInt64(current.st_dev) != file.device,
                let next = try openFile(from: .beginning)
            {
                if let rest = state.framer.finish() { decode(rest, into: &batch, state: &state) }
                flushHeld(into: &batch, state: &state)
                close(file.descriptor)
                var reopened = next
                batch.rotated = true
                state.statistics.rotations += 1
                try read(&reopened, into: &batch, state: &state)
                state.file = reopened
            }
            if batch == Batch() { flushHeld(into: &batch, state: &state) }
            return batch
        }
    }

    /// Polls every `interval` on `clock`, handing each non-empty batch to `body`, until the task is cancelled.
    public func run<C: Clock>(
        every interval: C.Duration, clock: C, _ body: (Batch) async throws -> Void
    ) async throws {
        while !Task.isCancelled {
            let batch = try poll()
            if batch != Batch() { try await body(batch) }
            if batch.more {
                await Task.yield()
            } else {
                try await clock.sleep(for: interval)
            }
        }
    }

    deinit {
        state.withLock { state in
            if let file = state.file { close(file.descriptor) }
        }
    }

    /// Opens the file at ``path``, refusing anything but a regular file: a device put at the path (a symlink to
    /// `/dev/zero`) would be read forever, and a named pipe would block the poll. Opened without blocking, so a pipe
    /// is refused rather than waited on.
    private func openFile(from start: StartPosition) throws -> OpenFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw FileProblem(path: path, errno: errno, doing: "read")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileProblem(path: path, errno: code, doing: "read")
        }
        if let reason = FileProblem.notFollowable(mode: info.st_mode, allowingPipes: false) {
            close(descriptor)
            throw FileProblem(path: path, doing: "follow", reason: reason)
        }
        if path.hasSuffix(".gz") {
            do {
                return OpenFile(
                    descriptor: descriptor, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), offset: 0,
                    gzip: try GzipStream())
            } catch {
                close(descriptor)
                throw FileProblem(path: path, doing: "read", reason: error.description)
            }
        }
        let offset: Int64
        switch start {
        case .beginning: offset = 0
        case .end: offset = Int64(info.st_size)
        case .lastLines(let count):
            do {
                offset = try Self.offsetOfLastLines(count, descriptor: descriptor, size: info.st_size)
            } catch {
                close(descriptor)
                throw FileProblem(path: path, errno: error.code, doing: "read")
            }
        }
        return OpenFile(descriptor: descriptor, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), offset: offset)
    }

    /// A failed `pread`, with its `errno`.
    private struct ReadFailure: Error {
        var code: Int32
    }

    /// Where the last `count` lines of a file of `size` bytes begin: found by reading backwards in 64 KiB pieces,
    /// so only as much of the file is read as those lines take. A final line without its newline counts as a line.
    private static func offsetOfLastLines(_ count: Int, descriptor: Int32, size: off_t) throws(ReadFailure) -> Int64 {
        guard count > 0 else { return Int64(size) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var end = Int64(size)
        var newlines = 0
        var first = true
        while end > 0 {
            let start = max(0, end - Int64(chunk.count))
            let length = Int(end - start)
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(start)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(code: errno)
            }
            guard read == length else { return 0 }
            var index = length - 1
            if first {
                // The newline that ends the last line does not start another.
                if index >= 0, chunk[index] == UInt8(ascii: "\n") { index -= 1 }
                first = false
            }
            while index >= 0 {
                if chunk[index] == UInt8(ascii: "\n") {
                    newlines += 1
                    if newlines == count { return start + Int64(index) + 1 }
                }
                index -= 1
            }
            end = start
        }
        return 0
    }

    private func read(_ file: inout OpenFile, into batch: inout Batch, state: inout State) throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        if let gzip = file.gzip { return try readCompressed(&file, gzip: gzip, chunk: &chunk, into: &batch, state: &state) }
        var readThisPoll = 0
        let received = now()
        while true {
            if readThisPoll >= Self.maximumBytesPerPoll {
                batch.more = true
                return
            }
            let count = chunk.withUnsafeMutableBytes {
                pread(file.descriptor, $0.baseAddress, $0.count, off_t(file.offset))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileProblem(path: path, errno: errno, doing: "read")
            }
            if count == 0 { return }
            file.offset += Int64(count)
            readThisPoll += count
            var frames: [Result<[UInt8], WireError>] = []
            chunk.withUnsafeBytes { bytes in
                state.framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { frame in
                    switch frame {
                    case .line(let line): frames.append(.success(Array(line)))
                    case .tooLong(let size): frames.append(.failure(.lineTooLong(byteCount: size)))
                    }
                }
            }
            for frame in frames { decode(frame, into: &batch, state: &state, receivedAt: received) }
        }
    }

    /// Reads a piece of a `.gz` file: compressed bytes up to ``maximumBytesPerPoll`` per poll, inflated piece by piece
    /// into the framer, so memory stays bounded whatever the file inflates to.
    private func readCompressed(
        _ file: inout OpenFile, gzip: GzipStream, chunk: inout [UInt8], into batch: inout Batch, state: inout State
    ) throws {
        var readThisPoll = 0
        let received = now()
        while true {
            if readThisPoll >= Self.maximumBytesPerPoll {
                batch.more = true
                return
            }
            let count = chunk.withUnsafeMutableBytes {
                pread(file.descriptor, $0.baseAddress, $0.count, off_t(file.offset))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileProblem(path: path, errno: errno, doing: "read")
            }
            if count == 0 { return }
            file.offset += Int64(count)
            readThisPoll += count
            var frames: [Result<[UInt8], WireError>] = []
            do {
                try chunk.withUnsafeBytes { bytes in
                    try gzip.inflate(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { inflated in
                        state.framer.feed(inflated) { frame in
                            switch frame {
                            case .line(let line): frames.append(.success(Array(line)))
                            case .tooLong(let size): frames.append(.failure(.lineTooLong(byteCount: size)))
                            }
                        }
                    }
                }
            } catch {
                throw FileProblem(path: path, doing: "read", reason: "\(error)")
            }
            for frame in frames { decode(frame, into: &batch, state: &state, receivedAt: received) }
        }
    }

    private func decode(
        _ frame: Result<[UInt8], WireError>, into batch: inout Batch, state: inout State, receivedAt: Date? = nil
    ) {
        switch frame {
        case .success(let line):
            let time = receivedAt ?? now()
            line.withUnsafeBytes { bytes in
                state.reader.read(bytes, receivedAt: time) { add($0, to: &batch, statistics: &state.statistics) }
            }
        case .failure(let error):
            add(.failure(error), to: &batch, statistics: &state.statistics)
        }
    }

    private func flushHeld(into batch: inout Batch, state: inout State) {
        state.reader.flush { add($0, to: &batch, statistics: &state.statistics) }
    }

    private func add(_ result: Result<WireEvent, WireError>, to batch: inout Batch, statistics: inout Statistics) {
        switch result {
        case .success(let event):
            batch.events.append(event)
            statistics.events += 1
        case .failure(let error):
            batch.badLines.append(error)
            statistics.badLines += 1
        }
    }
}
