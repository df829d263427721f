import ErrorStreaming
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
/// Each poll reads at most ``maximumBytesPerPoll`` of lines; ``Batch/more`` says the file has more, and
/// ``run(every:clock:_:)`` polls again at once, so a file that grew by hundreds of megabytes is read in bounded
/// pieces rather than held whole. A `.gz` file is inflated the same bounded piece per poll, as its lines are
/// consumed: a small file that inflates to gigabytes costs one piece of memory and one piece of work per poll. A
/// line held by the reader (a trace may follow it) is handed on at the first poll that finds nothing new.
///
/// Each ``poll()`` reads what was appended since the last one. A file that got shorter was truncated: reading
/// starts again at its beginning. A path that names a different file (another inode) was rotated: the old file
/// is read to its end, then the new one from its beginning. A missing file is waited for.
/// ``run(every:clock:_:)`` polls on an injected clock; tests call ``poll()`` directly.
///
/// Reading again what was counted before: each file opened is known by its ``FileIdentity``; `ledger` says how far
/// a store counted it in an earlier run (its ``FileMark``s for the file's device and inode). The lines up to that
/// offset are read again for the screen, and the leading ``Batch/countedBefore`` events of a batch are theirs;
/// a batch that ends where nothing is held carries the ``Batch/mark`` to record once its events are counted.
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

    /// What a store remembers of the files with a device and inode: the marks to check against the file's first
    /// bytes. Nothing (the default) when no store keeps them.
    public typealias Ledger = @Sendable (_ device: UInt64, _ inode: UInt64) -> [FileMark]

    /// What one poll found.
    public struct Batch: Sendable, Equatable {
        /// Good events, in file order.
        public var events: [WireEvent] = []
        /// How many of the first ``events`` were counted by an earlier reading of the file (its ledger's mark).
        public var countedBefore = 0
        /// Lines that could not be decoded.
        public var badLines: [WireError] = []
        /// Whether the file was truncated since the last poll.
        public var truncated = false
        /// Whether the path was rotated to a new file since the last poll.
        public var rotated = false
        /// Whether the poll stopped at ``FileTailer/maximumBytesPerPoll`` with more of the file unread.
        public var more = false
        /// How far the file is read with nothing held back (no partial line, no line waiting for its trace): to
        /// record once the events are counted. `nil` while something is held, or before the counted lines.
        public var mark: FileMark?

        /// An empty batch.
        public init() {}

        /// Whether the poll found nothing at all: no event, no bad line, no truncation or rotation.
        public var isEmpty: Bool { events.isEmpty && badLines.isEmpty && !truncated && !rotated && !more }
    }

    /// Totals since tailing began.
    public struct Statistics: Sendable, Hashable {
        /// Good events read.
        public var events: UInt64 = 0
        /// Of them, events an earlier reading counted (read again for the screen only).
        public var countedBefore: UInt64 = 0
        /// Bad lines read.
        public var badLines: UInt64 = 0
        /// Truncations noticed.
        public var truncations: UInt64 = 0
        /// Rotations noticed.
        public var rotations: UInt64 = 0
    }

    private struct OpenFile {
        var descriptor: Int32
        var identity: FileIdentity
        /// Bytes of the file read (compressed bytes, for a `.gz` file).
        var offset: Int64
        /// Bytes of lines fed to the framer: ``offset`` for a plain file, the inflated bytes for a `.gz` one.
        var position: Int64
        /// Where the lines an earlier reading counted end; 0 when none were.
        var countedThrough: Int64 = 0
        /// The inflater of a `.gz` file, read once from its beginning (a compressed file is not appended to).
        var gzip: Inflater?
    }

    private struct State {
        var file: OpenFile?
        var framer = LineFramer()
        var reader: LineReader
        var statistics = Statistics()
        var bytesRead: UInt64 = 0
        /// Where the first opening starts; later openings (after a rotation) start at the beginning.
        var start: StartPosition
        /// Whether the line the reader holds (waiting for its trace) was counted before.
        var heldCounted = false
        /// The buffer a `.gz` file is inflated into: allocated at its first piece, so a plain file costs nothing
        /// here (ten thousand files followed at once would otherwise hold 64 KiB each).
        var inflated: [UInt8] = []
    }

    /// The file followed.
    public let path: String
    private let state: Mutex<State>
    private let now: @Sendable () -> Date
    private let ledger: Ledger

    /// The most bytes of lines one poll reads (of a `.gz` file, inflated bytes).
    public static let maximumBytesPerPoll = 1024 * 1024

    /// Creates a tailer reading lines as `format`; nothing is read until the first poll. `now` stamps lines that
    /// carry no time of their own; `ledger` says what an earlier reading counted.
    public init(
        path: String, from start: StartPosition = .beginning, format: LogFormat = .auto,
        now: @escaping @Sendable () -> Date = { Date() }, ledger: @escaping Ledger = { _, _ in [] }
    ) {
        self.path = path
        self.now = now
        self.ledger = ledger
        self.state = Mutex(State(reader: LineReader(format: format), start: start))
    }

    /// Totals so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether the reader holds an event back (a line a trace may follow), to hand on at the next poll that finds
    /// nothing new.
    public var holdsEvent: Bool { state.withLock { $0.reader.hasPendingEvent } }

    /// Bytes of lines read since tailing began (of a `.gz` file, inflated bytes): how much work reading took.
    public var bytesRead: UInt64 { state.withLock { $0.bytesRead } }

    /// The identity of the file open now, if one is.
    public var identity: FileIdentity? { state.withLock { $0.file?.identity } }

    /// Reads what is new. Throws only for I/O errors other than a missing file.
    public func poll() throws -> Batch {
        try state.withLock { state in
            var batch = Batch()
            if state.file == nil {
                guard let opened = try openFile(from: state.start) else { return batch }
                state.file = opened
            } else if state.file?.descriptor ?? 0 < 0 {
                try reopen(into: &batch, state: &state)
            }
            state.start = .beginning
            guard var file = state.file, file.descriptor >= 0 else { return batch }
            var info = stat()
            guard fstat(file.descriptor, &info) == 0 else { throw FileProblem(path: path, errno: errno, doing: "read") }
            if file.gzip == nil, Int64(info.st_size) < file.offset {
                file.offset = 0
                file.position = 0
                file.countedThrough = 0
                state.framer.reset()
                batch.truncated = true
                state.statistics.truncations += 1
            }
            try read(&file, into: &batch, state: &state)
            state.file = file
            if batch.more {
                setMark(file, in: &batch, state: state)
                return batch
            }
            var current = stat()
            if stat(path, &current) == 0,
                UInt64(current.st_ino) != file.identity.inode || UInt64(current.st_dev) != file.identity.device,
                let next = try openFile(from: .beginning)
            {
                if let rest = state.framer.finish() { decode(rest, replay: false, into: &batch, state: &state) }
                flushHeld(into: &batch, state: &state)
                close(file.descriptor)
                var reopened = next
                batch.rotated = true
                state.statistics.rotations += 1
                try read(&reopened, into: &batch, state: &state)
                state.file = reopened
                file = reopened
            }
            if batch.events.isEmpty, batch.badLines.isEmpty, !batch.truncated, !batch.rotated {
                flushHeld(into: &batch, state: &state)
            }
            setMark(file, in: &batch, state: state)
            return batch
        }
    }

    /// The batch's mark: where the file's lines are read to, when nothing is held back and the counted lines are
    /// behind.
    private func setMark(_ file: OpenFile, in batch: inout Batch, state: State) {
        guard !state.framer.hasPartialLine, !state.reader.hasPendingEvent, file.position >= file.countedThrough,
            file.position > 0
        else { return }
        batch.mark = FileMark(identity: file.identity, path: path, offset: file.position)
    }

    /// Polls every `interval` on `clock`, handing each non-empty batch to `body`, until the task is cancelled.
    public func run<C: Clock>(
        every interval: C.Duration, clock: C, _ body: (Batch) async throws -> Void
    ) async throws {
        while !Task.isCancelled {
            let batch = try poll()
            if !batch.isEmpty { try await body(batch) }
            if batch.more {
                await Task.yield()
            } else {
                try await clock.sleep(for: interval)
            }
        }
    }

    /// The bytes a `.gz` file's reading holds between polls, whatever the file inflates to: compressed bytes
    /// supplied and not yet inflated (at most one read's) and the buffer it is inflated into. (The part of a line not
    /// ended yet is held too, at most the framer's line limit, as for any file.)
    var heldInflationBytes: Int {
        state.withLock { state in (state.file?.gzip?.bufferedInputBytes ?? 0) + state.inflated.count }
    }

    /// Whether the tailer holds a descriptor now: from its first poll that found the file until
    /// ``releaseDescriptor()``.
    public var holdsDescriptor: Bool { state.withLock { ($0.file?.descriptor ?? -1) >= 0 } }

    /// Closes the file's descriptor and keeps its place: the next ``poll()`` opens the path again and, when it
    /// still names the same file (device and inode), reads on from where it stopped, with the line it was in the
    /// middle of, the line held for its trace and a `.gz` file's inflater all kept. A path that names another file by
    /// then was rotated while closed: what the old file gained since cannot be read, and the new one is read from its
    /// beginning. So a follower can read more files than it may hold descriptors, in turns.
    public func releaseDescriptor() {
        state.withLock { state in
            guard let descriptor = state.file?.descriptor, descriptor >= 0 else { return }
            close(descriptor)
            state.file?.descriptor = -1
        }
    }

    /// Opens the path again after ``releaseDescriptor()``: the same file goes on where it stopped; another file at
    /// the path is a rotation (the old file's held lines are handed on first); no file yet leaves the place kept.
    private func reopen(into batch: inout Batch, state: inout State) throws {
        guard var file = state.file else { return }
        guard let (descriptor, info) = try openPath() else { return }
        if UInt64(info.st_ino) == file.identity.inode, UInt64(info.st_dev) == file.identity.device {
            file.descriptor = descriptor
            state.file = file
            return
        }
        close(descriptor)
        guard let next = try openFile(from: .beginning) else { return }
        if let rest = state.framer.finish() { decode(rest, replay: false, into: &batch, state: &state) }
        flushHeld(into: &batch, state: &state)
        batch.rotated = true
        state.statistics.rotations += 1
        state.file = next
    }

    deinit {
        state.withLock { state in
            if let file = state.file, file.descriptor >= 0 { close(file.descriptor) }
        }
    }

    /// The path opened for reading without blocking, with what `fstat` says of it; `nil` while nothing is there.
    private func openPath() throws -> (descriptor: Int32, info: stat)? {
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
        return (descriptor, info)
    }

    /// Opens the file at ``path``, refusing anything but a regular file: a device put at the path (a symlink to
    /// `/dev/zero`) would be read forever, and a named pipe would block the poll. Opened without blocking, so a pipe
    /// is refused rather than waited on. Its identity is read, and what an earlier reading counted of it looked up.
    private func openFile(from start: StartPosition) throws -> OpenFile? {
        guard let (descriptor, info) = try openPath() else { return nil }
        if let reason = FileProblem.notFollowable(mode: info.st_mode, allowingPipes: false) {
            close(descriptor)
            throw FileProblem(path: path, doing: "follow", reason: reason)
        }
        // Known again by its first bytes: the mark whose checksum still matches, else a new identity.
        let (known, mark) = FileIdentity.reading(
            descriptor: descriptor, info: info, marks: ledger(UInt64(info.st_dev), UInt64(info.st_ino)), unit: .bytes)
        let countedThrough = mark?.offset ?? 0
        if path.hasSuffix(".gz") {
            do {
                var opened = OpenFile(
                    descriptor: descriptor, identity: known, offset: 0, position: 0, gzip: try Inflater(header: .gzip))
                opened.countedThrough = countedThrough
                return opened
            } catch {
                close(descriptor)
                throw FileProblem(path: path, doing: "read", reason: "not a readable gzip file: \(error)")
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
        var opened = OpenFile(descriptor: descriptor, identity: known, offset: offset, position: offset)
        // A counted part beyond the end of what this file now holds is another file's: nothing is counted.
        opened.countedThrough = countedThrough <= Int64(info.st_size) ? countedThrough : 0
        return opened
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
        if file.gzip != nil { return try readCompressed(&file, chunk: &chunk, into: &batch, state: &state) }
        var readThisPoll = 0
        let received = now()
        while true {
            if readThisPoll >= Self.maximumBytesPerPoll {
                batch.more = true
                return
            }
            // Up to the end of what was counted before, then on: the two parts are read as such.
            let room = file.position < file.countedThrough ? Int(min(Int64(chunk.count), file.countedThrough - file.position)) : chunk.count
            let count = chunk.withUnsafeMutableBytes {
                pread(file.descriptor, $0.baseAddress, room, off_t(file.offset))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileProblem(path: path, errno: errno, doing: "read")
            }
            if count == 0 { return }
            let replay = file.position < file.countedThrough
            file.offset += Int64(count)
            file.position += Int64(count)
            readThisPoll += count
            state.bytesRead += UInt64(count)
            chunk.withUnsafeBytes { bytes in
                frame(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), replay: replay, into: &batch, state: &state, receivedAt: received)
            }
        }
    }

    /// Reads a piece of a `.gz` file: at most ``maximumBytesPerPoll`` inflated bytes per poll, compressed bytes read
    /// only as the inflater needs them, so memory and work per poll stay bounded whatever the file inflates to.
    private func readCompressed(
        _ file: inout OpenFile, chunk: inout [UInt8], into batch: inout Batch, state: inout State
    ) throws {
        guard let gzip = file.gzip else { return }
        if state.inflated.isEmpty { state.inflated = [UInt8](repeating: 0, count: 64 * 1024) }
        var inflatedThisPoll = 0
        let received = now()
        while true {
            if inflatedThisPoll >= Self.maximumBytesPerPoll {
                batch.more = true
                return
            }
            if gzip.needsInput {
                let count = chunk.withUnsafeMutableBytes {
                    pread(file.descriptor, $0.baseAddress, $0.count, off_t(file.offset))
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FileProblem(path: path, errno: errno, doing: "read")
                }
                if count == 0 { return }
                file.offset += Int64(count)
                chunk.withUnsafeBytes { gzip.supply(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            // Inflated up to the end of what was counted before, then on.
            let room =
                file.position < file.countedThrough
                ? Int(min(Int64(state.inflated.count), file.countedThrough - file.position)) : state.inflated.count
            var failure: Inflater.Failure?
            let produced = state.inflated.withUnsafeMutableBytes { buffer -> Int in
                do throws(Inflater.Failure) {
                    return try gzip.inflate(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<room]))
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure {
                throw FileProblem(path: path, doing: "read", reason: "not a readable gzip file: \(failure)")
            }
            if produced == 0 {
                if gzip.needsInput { continue }
                return
            }
            let replay = file.position < file.countedThrough
            file.position += Int64(produced)
            inflatedThisPoll += produced
            state.bytesRead += UInt64(produced)
            let inflated = state.inflated
            inflated.withUnsafeBytes { bytes in
                frame(UnsafeRawBufferPointer(rebasing: bytes[0..<produced]), replay: replay, into: &batch, state: &state, receivedAt: received)
            }
        }
    }

    /// Cuts `bytes` into lines and decodes them; `replay` says they were counted before. The framer is taken out of
    /// the state while it calls back, so each line is decoded where it lies in the piece rather than copied into an
    /// array of its own first.
    private func frame(
        _ bytes: UnsafeRawBufferPointer, replay: Bool, into batch: inout Batch, state: inout State, receivedAt: Date
    ) {
        var framer = state.framer
        state.framer = LineFramer(maximumLineBytes: framer.maximumLineBytes)
        framer.feed(bytes) { frame in
            switch frame {
            case .line(let line):
                decode(line: line, replay: replay, into: &batch, state: &state, receivedAt: receivedAt)
            case .tooLong(let size):
                decode(.failure(.lineTooLong(byteCount: size)), replay: replay, into: &batch, state: &state)
            }
        }
        state.framer = framer
    }

    /// Decodes one line; its events are counted before when `replay` is. A line the reader held (waiting for its
    /// trace) keeps what its own first line was.
    private func decode(
        _ frame: Result<[UInt8], WireError>, replay: Bool, into batch: inout Batch, state: inout State,
        receivedAt: Date? = nil
    ) {
        switch frame {
        case .success(let line):
            line.withUnsafeBytes { bytes in
                decode(line: bytes, replay: replay, into: &batch, state: &state, receivedAt: receivedAt ?? now())
            }
        case .failure(let error):
            add(.failure(error), counted: replay, to: &batch, statistics: &state.statistics)
        }
    }

    /// Decodes one line's bytes (valid only during the call).
    private func decode(
        line: UnsafeRawBufferPointer, replay: Bool, into batch: inout Batch, state: inout State, receivedAt: Date
    ) {
        let hadHeld = state.reader.hasPendingEvent
        let heldCounted = state.heldCounted
        var emitted = 0
        state.reader.read(line, receivedAt: receivedAt) { result in
            let counted = hadHeld && emitted == 0 ? heldCounted : replay
            emitted += 1
            add(result, counted: counted, to: &batch, statistics: &state.statistics)
        }
        if state.reader.hasPendingEvent, emitted > 0 || !hadHeld { state.heldCounted = replay }
    }

    private func flushHeld(into batch: inout Batch, state: inout State) {
        let counted = state.heldCounted
        state.reader.flush { add($0, counted: counted, to: &batch, statistics: &state.statistics) }
    }

    private func add(
        _ result: consuming Result<WireEvent, WireError>, counted: Bool, to batch: inout Batch,
        statistics: inout Statistics
    ) {
        // Consumed: the event moves into the batch rather than being copied there and released here.
        switch consume result {
        case .success(let event):
            // Counted-before events come first in a batch (a file is read in order): they are a prefix.
            if counted, batch.countedBefore == batch.events.count {
                batch.countedBefore += 1
                statistics.countedBefore += 1
            }
            batch.events.append(event)
            statistics.events += 1
        case .failure(let error):
            batch.badLines.append(error)
            statistics.badLines += 1
        }
    }
}
