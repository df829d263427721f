/// Splits a byte stream into lines, never holding more than one line's worth of bytes.
///
/// A line longer than the limit is not buffered: the framer reports it once, as soon as it is known to be too
/// long, then skips bytes up to its newline. Empty lines are ignored; a trailing `\r` is kept for the decoder,
/// which drops it.
///
/// ```swift
/// var framer = LineFramer()
/// framer.feed(Array("{\"v\":1}\n{\"v\"".utf8)) { frame in … }   // one .line; `{"v"` waits for more bytes
/// ```
public struct LineFramer: Sendable {
    /// The wire format's limit: 64 KiB per line, newline included.
    public static let defaultMaximumLineBytes = 64 * 1024

    /// What the framer found in the bytes fed to it.
    public enum Frame {
        /// One complete line without its newline, valid only during the callback.
        case line(UnsafeRawBufferPointer)
        /// A line over the limit: reported once, at `byteCount` bytes seen so far, then skipped to its newline.
        case tooLong(byteCount: Int)
    }

    /// The longest line accepted, newline included.
    public let maximumLineBytes: Int
    private var pending: [UInt8] = []
    private var skipping = false

    /// Creates a framer with a limit on line length (newline included).
    public init(maximumLineBytes: Int = LineFramer.defaultMaximumLineBytes) {
        precondition(maximumLineBytes > 1, "a line needs room for at least one byte and the newline")
        self.maximumLineBytes = maximumLineBytes
    }

    /// The bytes of an unfinished line held so far (0 while skipping an overlong line).
    public var pendingByteCount: Int { pending.count }

    /// Whether bytes of an unfinished line (kept or skipped) are waiting for their newline.
    public var hasPartialLine: Bool { !pending.isEmpty || skipping }

    /// Feeds bytes; calls `body` for every complete line and every overlong line found.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Frame) throws -> Void) rethrows {
        let limit = maximumLineBytes - 1
        var start = 0
        let count = bytes.count
        while start < count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? count
            if skipping {
                if newline != nil { skipping = false }
            } else if pending.isEmpty, newline != nil, end - start <= limit {
                if end > start { try body(.line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))) }
            } else if pending.count + (end - start) > limit {
                let seen = pending.count + (end - start)
                pending.removeAll(keepingCapacity: false)
                skipping = newline == nil
                try body(.tooLong(byteCount: newline == nil ? seen : seen + 1))
            } else {
                pending.append(contentsOf: bytes[start..<end])
                if newline != nil {
                    let line = pending
                    pending.removeAll(keepingCapacity: true)
                    if !line.isEmpty { try line.withUnsafeBytes { try body(.line($0)) } }
                }
            }
            start = end + 1
        }
    }

    /// Feeds bytes and collects what was found: lines as arrays, overlong lines as their size.
    public mutating func feed(_ bytes: [UInt8]) -> [Result<[UInt8], WireError>] {
        var frames: [Result<[UInt8], WireError>] = []
        bytes.withUnsafeBytes { buffer in
            feed(buffer) { frame in
                switch frame {
                case .line(let line): frames.append(.success(Array(line)))
                case .tooLong(let count): frames.append(.failure(.lineTooLong(byteCount: count)))
                }
            }
        }
        return frames
    }

    /// Ends the stream: the unfinished line, if any, as a last frame (an overlong one as its error), and resets.
    ///
    /// For files, whose last line may lack its newline. A socket that closes mid-line is counted as truncated
    /// instead (see ``ProducerStatus/ErrorCounts/truncated``).
    public mutating func finish() -> Result<[UInt8], WireError>? {
        defer { reset() }
        if skipping { return nil }
        return pending.isEmpty ? nil : .success(pending)
    }

    /// Forgets an unfinished line, for example when a file was truncated; returns whether there was one.
    @discardableResult
    public mutating func reset() -> Bool {
        defer {
            pending.removeAll(keepingCapacity: false)
            skipping = false
        }
        return hasPartialLine
    }
}
