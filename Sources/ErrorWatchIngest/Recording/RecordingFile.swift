import ErrorWatchWire
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A recording opened for reading from front to back, one line at a time, in bounded memory: the file is read in
/// chunks of ``chunkBytes`` through a ``LineFramer`` and only the current chunk's lines are held, whatever the
/// file's size. An unterminated last line counts too (a recorder that crashed mid-write leaves one).
///
/// ```swift
/// let file = try RecordingFile(path: "session.ndjson")
/// while let line = try file.next() {
///     if case .success(let event) = line { show(event) }
/// }
/// ```
///
/// Not `Sendable`: it owns a file descriptor and a read position; one reader uses it. The descriptor is closed at
/// the end of the file or when the reader is released.
public final class RecordingFile {
    /// The most bytes read per system call.
    public static let chunkBytes = 64 * 1024
    /// The longest line read, newline included: 1 MiB, room for an error's ``ExceptionReport`` (a feed's lines are
    /// held to the wire format's 64 KiB; ``RecordingWriter`` keeps every line it writes within this).
    public static let maximumLineBytes = 1024 * 1024

    /// The recording's path.
    public let path: String
    private var descriptor: Int32
    private var framer = LineFramer(maximumLineBytes: RecordingFile.maximumLineBytes)
    private var chunk = [UInt8](repeating: 0, count: RecordingFile.chunkBytes)
    /// The lines framed from the current chunk, decoded; at most one chunk's worth.
    private var ready: [Result<WireEvent, WireError>] = []
    private var readyIndex = 0
    private var ended = false
    private let decoder = WireDecoder(maximumLineBytes: RecordingFile.maximumLineBytes)

    /// Opens the regular file at `path`.
    ///
    /// - Throws: a ``FileProblem`` in one sentence: `cannot read the recording PATH: no such file or directory`.
    public init(path: String) throws(FileProblem) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileProblem(path: path, errno: errno, doing: "read the recording") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileProblem(path: path, doing: "read the recording", reason: "it is not a regular file")
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw FileProblem(path: path, errno: errno, doing: "read the recording") }
        descriptor = opened
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The next line: the event it holds or why it holds none; `nil` at the end of the file.
    ///
    /// - Throws: a ``FileProblem`` when reading fails (an I/O error); the lines before it were returned.
    public func next() throws(FileProblem) -> Result<WireEvent, WireError>? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if ended { return nil }
            try fill()
        }
        let line = ready[readyIndex]
        readyIndex += 1
        return line
    }

    /// Reads one chunk and frames its lines into `ready` (none when the chunk ends inside a line).
    private func fill() throws(FileProblem) {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { return }
            throw FileProblem(path: path, errno: errno, doing: "read the recording")
        }
        if count == 0 {
            ended = true
            if let rest = framer.finish() {
                switch rest {
                case .success(let line): ready.append(decode(line))
                case .failure(let error): ready.append(.failure(error))
                }
            }
            close(descriptor)
            descriptor = -1
            return
        }
        chunk.withUnsafeBytes { bytes in
            framer.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { frame in
                switch frame {
                case .line(let line): ready.append(decode(line))
                case .tooLong(let size): ready.append(.failure(.lineTooLong(byteCount: size)))
                }
            }
        }
    }

    private func decode(_ line: UnsafeRawBufferPointer) -> Result<WireEvent, WireError> {
        Result { () throws(WireError) in try decoder.decode(line) }
    }

    private func decode(_ line: [UInt8]) -> Result<WireEvent, WireError> {
        Result { () throws(WireError) in try decoder.decode(line) }
    }
}
