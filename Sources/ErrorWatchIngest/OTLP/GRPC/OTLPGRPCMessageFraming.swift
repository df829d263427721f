/// Where a call's bytes stand in gRPC's message framing: each message is a five-byte prefix (a compression flag,
/// then the message's length as a big-endian 32-bit integer) followed by that many bytes, and a call's DATA frames
/// cut this stream of bytes anywhere, a prefix included.
///
/// The receiver reads a call's bytes with it as they arrive (``OTLPGRPCStreamGate``), to weigh each message
/// against the size limit and the body budget from its prefix, before the transport buffers any of it. It holds at
/// most the four bytes of a prefix cut by a frame's end, whatever it is fed, and never copies a message's bytes.
/// Public so that the fuzz target can reach it (docs/fuzzing.md); the receiver is its one user.
///
/// ```swift
/// var framing = OTLPGRPCMessageFraming()
/// var offset = 0
/// while offset < bytes.count {
///     let step = framing.next(in: bytes, from: offset)
///     if case .prefix(_, let prefix) = step { print(prefix.length) }
///     offset += step.count
/// }
/// ```
public struct OTLPGRPCMessageFraming: Sendable, Hashable {
    /// A message's five-byte prefix, read.
    public struct Prefix: Sendable, Hashable {
        /// Whether the message is compressed (the flag's lowest bit; the other bits are reserved).
        public var compressed: Bool
        /// The flag byte as sent.
        public var flag: UInt8
        /// The message's length in bytes, as announced.
        public var length: Int

        /// The five bytes the prefix is written as.
        public var bytes: [UInt8] {
            let length = UInt32(truncatingIfNeeded: self.length)
            return [flag, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        }
    }

    /// What the bytes from an offset hold, up to the next place the reader of a call may need to act.
    public enum Step: Sendable, Hashable {
        /// The next `count` bytes are a message's own (possibly the whole rest of the bytes given).
        case body(count: Int)
        /// The next `count` bytes begin a prefix that the bytes given do not finish: kept by the framing, to be
        /// completed by the next bytes.
        case partialPrefix(count: Int)
        /// The next `count` bytes finish a prefix (all five, or the rest of one begun earlier).
        case prefix(count: Int, Prefix)

        /// How many of the bytes given the step covers.
        public var count: Int {
            switch self {
            case .body(let count), .partialPrefix(let count), .prefix(let count, _): count
            }
        }
    }

    /// The prefix's bytes read so far (fewer than five), when a prefix is being read.
    private var prefixBytes: [UInt8] = []
    /// Bytes of the current message still to come; `0` between messages.
    private var remaining = 0
    /// Messages whose prefix has been read.
    public private(set) var messages = 0

    /// A framing at the start of a call: its first byte begins a prefix.
    public init() {}

    /// Whether the framing stands between two messages (a call may end here and be whole).
    public var atMessageBoundary: Bool { remaining == 0 && prefixBytes.isEmpty }

    /// The bytes of the current message still to come (`0` when a prefix is next).
    public var remainingInMessage: Int { remaining }

    /// Reads `bytes` from `offset` (which must be below `bytes.count`) up to the next step: the rest of a message,
    /// or a prefix's bytes. The caller advances by the step's ``Step/count`` (at least 1) and calls again.
    public mutating func next(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Step {
        precondition(offset >= 0 && offset < bytes.count, "no bytes to read")
        let available = bytes.count - offset
        if remaining > 0 {
            let count = min(remaining, available)
            remaining -= count
            return .body(count: count)
        }
        let wanted = 5 - prefixBytes.count
        guard available >= wanted else {
            prefixBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<bytes.count]))
            return .partialPrefix(count: available)
        }
        var prefix = prefixBytes
        prefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + wanted]))
        prefixBytes.removeAll()
        let length = Int(prefix[1]) << 24 | Int(prefix[2]) << 16 | Int(prefix[3]) << 8 | Int(prefix[4])
        remaining = length
        messages += 1
        return .prefix(count: wanted, Prefix(compressed: prefix[0] & 1 == 1, flag: prefix[0], length: length))
    }
}
