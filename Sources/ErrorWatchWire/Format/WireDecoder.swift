import Foundation

/// Turns one line of the wire format back into a ``WireEvent``, or says precisely why it cannot.
///
/// ```swift
/// switch Result(catching: { try WireDecoder().decode(line) }) {
/// case .success(let event): show(event)
/// case .failure(let error as WireError): count(error)
/// }
/// ```
public struct WireDecoder: Sendable {
    /// The longest line accepted, newline included.
    public var maximumLineBytes: Int

    /// Creates a decoder with the format's 64 KiB line limit.
    public init(maximumLineBytes: Int = LineFramer.defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Decodes the bytes of one line, with or without its trailing newline.
    ///
    /// An event whose `time` cannot be read is kept at `readAt` (now when `nil`), marked with
    /// ``WireEvent/unreadableTimeAttribute``.
    public func decode(_ line: some Collection<UInt8>, readAt: Date? = nil) throws(WireError) -> WireEvent {
        let result = Array(line).withUnsafeBytes { bytes in
            Result { () throws(WireError) in try decode(bytes, readAt: readAt) }
        }
        return try result.get()
    }

    /// Decodes the bytes of one line in place, with or without its trailing newline: the listener's hot path.
    public func decode(_ line: UnsafeRawBufferPointer, readAt: Date? = nil) throws(WireError) -> WireEvent {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        guard end < maximumLineBytes else { throw .lineTooLong(byteCount: end + 1) }
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        guard Self.isValidUTF8(bytes) else { throw .invalidUTF8 }
        guard bytes.contains(where: { !Self.isWhitespace($0) }) else { throw .malformedJSON("empty line") }
        return try WireEvent(scanning: bytes, readAt: readAt)
    }

    /// ASCII lines (nearly all of them) are checked eight bytes at a time; others by the standard library.
    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if isASCII(bytes) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    /// Whether no byte has its high bit set.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var bits: UInt64 = 0
        var position = 0
        while position &+ 8 <= bytes.count {
            bits |= bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            position &+= 8
        }
        while position < bytes.count {
            bits |= UInt64(bytes[position])
            position &+= 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}

