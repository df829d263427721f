import ErrorWatchWire
import Foundation

/// Reads the lines of any log stream into events: our wire format first, then the common JSON loggers' shapes
/// (pino, bunyan, zap, logrus, structlog, Serilog's CLEF, GELF, python-json-logger, any JSON object), logfmt and
/// plain text, with multi-line stack traces folded into the event they belong to.
///
/// One reader per stream (a file, a pipe, a connection): it keeps the last plain-text line until the next one
/// shows whether a trace follows, so call ``flush(_:)`` when the stream goes quiet or ends. A line at error level
/// or above, or one carrying an exception, becomes an error event; any other line a log event; nothing is dropped
/// silently (a line that is not an event, such as a malformed wire line, is handed back as a ``WireError``).
/// Every event read from a log shape carries the attribute `log.format`.
///
/// ```swift
/// var reader = LineReader(format: .auto)
/// reader.read(Array(#"{"level":50,"time":1732356000000,"msg":"payment failed"}"#.utf8), receivedAt: Date()) {
///     result in … }   // .success(error event "Error: payment failed")
/// reader.flush { result in … }
/// ```
public struct LineReader: Sendable {
    /// The shape every line is read as; ``LogFormat/auto`` picks one per line.
    public let format: LogFormat
    private let decoder: WireDecoder
    private var folder = TracebackFolder()

    /// Creates a reader; `maximumLineBytes` is the wire decoder's limit (the framer enforces it first).
    /// `inheritingTimes`: whether a line without a time of its own takes the previous line's (a file read from any
    /// point, whose lines' order is their time) or the time it was read (a live stream: a pipe, a connection).
    public init(
        format: LogFormat = .auto, maximumLineBytes: Int = LineFramer.defaultMaximumLineBytes,
        inheritingTimes: Bool = true
    ) {
        self.format = format
        self.decoder = WireDecoder(maximumLineBytes: maximumLineBytes)
        folder.inheritsTimes = inheritingTimes
    }

    /// Whether a plain-text line is held until the next line or ``flush(_:)``.
    public var hasPendingEvent: Bool { folder.hasPending }

    /// Reads one line (without its newline); hands `emit` zero, one or two results: a held line that this one
    /// shows to be complete, then this line's, unless it is held in turn.
    public mutating func read(
        _ line: UnsafeRawBufferPointer, receivedAt: Date, _ emit: (consuming Result<WireEvent, WireError>) -> Void
    ) {
        if format == .wire {
            emit(Result { () throws(WireError) in try decoder.decode(line, readAt: receivedAt) })
            return
        }
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        var start = 0
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        if start == end {
            // A blank line: part of a trace when one is open (Python's chains, Go's dumps), else nothing.
            if folder.hasPending { offerText(bytes, receivedAt: receivedAt, emit) }
            return
        }
        if bytes[start] == UInt8(ascii: "{"), format != .text, format != .logfmt {
            if format == .auto, Self.startsWithVersionKey(bytes, after: start) {
                flushHeld(emit)
                emit(Result { () throws(WireError) in try decoder.decode(bytes, readAt: receivedAt) })
                return
            }
            if Self.isValidUTF8(bytes), let fields = JSONFields(scanning: bytes) {
                flushHeld(emit)
                if format == .auto, fields.has("v"), fields.has("kind") {
                    emit(Result { () throws(WireError) in try decoder.decode(bytes, readAt: receivedAt) })
                    return
                }
                let shape = format == .auto ? JSONLogShapes.detect(fields) : format
                var record = JSONLogShapes.record(fields, format: shape, receivedAt: receivedAt)
                folder.stamp(&record)
                emit(.success(record.takeEvent()))
                return
            }
        }
        offerText(bytes, receivedAt: receivedAt, emit)
    }

    /// Reads one line given as bytes; the results in order.
    public mutating func read(_ line: [UInt8], receivedAt: Date) -> [Result<WireEvent, WireError>] {
        var results: [Result<WireEvent, WireError>] = []
        line.withUnsafeBytes { read($0, receivedAt: receivedAt) { results.append($0) } }
        return results
    }

    /// Emits the held plain-text line (with its trace), if any: call it when the stream goes quiet or ends.
    public mutating func flush(_ emit: (consuming Result<WireEvent, WireError>) -> Void) {
        flushHeld(emit)
    }

    /// The held line, if any, as results.
    public mutating func flush() -> [Result<WireEvent, WireError>] {
        var results: [Result<WireEvent, WireError>] = []
        flush { results.append($0) }
        return results
    }

    private mutating func flushHeld(_ emit: (consuming Result<WireEvent, WireError>) -> Void) {
        guard folder.hasPending else { return }
        folder.flush { emit(.success($0)) }
    }

    private mutating func offerText(
        _ bytes: UnsafeRawBufferPointer, receivedAt: Date, _ emit: (consuming Result<WireEvent, WireError>) -> Void
    ) {
        // Binary data piped in by mistake is counted, not shown: decoding, folding and drawing it as text made a
        // stream of garbage crawl at 2 MB/s.
        if Self.isBinary(bytes) {
            flushHeld(emit)
            emit(.failure(.binary(byteCount: bytes.count)))
            return
        }
        // Invalid UTF-8 is shown with replacement characters rather than dropped: plain logs are often Latin-1.
        let text = String(decoding: bytes, as: UTF8.self)
        folder.offer(text, makeRecord: { TextLine.record(bytes, receivedAt: receivedAt) }) { emit(.success($0)) }
    }

    /// `{"v":` (whitespace allowed): our wire format, whose writers put the version first.
    private static func startsWithVersionKey(_ bytes: UnsafeRawBufferPointer, after brace: Int) -> Bool {
        var index = brace + 1
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        guard index + 3 < bytes.count else { return false }
        return bytes[index] == UInt8(ascii: "\"") && bytes[index + 1] == UInt8(ascii: "v")
            && bytes[index + 2] == UInt8(ascii: "\"")
    }

    /// Whether a line is binary data rather than text: it holds a NUL byte; or more than one byte in 16 is a
    /// control character no log line has (C0 but tab, carriage return and escape, which coloured logs use; and
    /// DEL); or it holds such a control and is not UTF-8 either. Latin-1 and UTF-8 text, coloured or not, has none
    /// of these controls; random bytes have about one in nine.
    static func isBinary(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var controls = 0
        for byte in bytes where byte < 0x20 || byte == 0x7F {
            if byte == 0 { return true }
            if byte != 0x09 && byte != 0x0D && byte != 0x1B { controls += 1 }
        }
        return controls * 16 > bytes.count || (controls > 0 && !isValidUTF8(bytes))
    }

    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }
}
