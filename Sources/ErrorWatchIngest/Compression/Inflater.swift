import CZlib

/// The one zlib inflater of the dashboard: request bodies (`Content-Encoding: gzip` or `deflate`, OTLP and
/// Sentry) and `.gz` files alike.
///
/// It inflates when asked and only as much as asked: compressed bytes are ``supply(_:)``-ed, and each
/// ``inflate(into:)`` fills at most the buffer it is given, so whoever reads decides the pace and the memory. A
/// `.gz` file is inflated a bounded piece per poll, as its lines are consumed, and a body stops at its limit: a
/// small input that would inflate to gigabytes (a bomb) costs what was asked of it, never what it would give.
/// Concatenated gzip members (`cat a.gz b.gz`, some log rotations) are inflated one after another, as `gunzip` does.
///
/// ```swift
/// let inflater = try Inflater(header: .gzip)
/// inflater.supply(compressedChunk)
/// while let count = try inflater.inflate(into: buffer), count > 0 { consume(buffer[..<count]) }
/// ```
///
/// Not `Sendable`: one owner (a ``FileTailer`` under its lock, a request's exchange) uses it at a time.
final class Inflater {
    /// What the compressed stream starts with.
    enum Header {
        /// A gzip header (files).
        case gzip
        /// A gzip or a zlib header, whichever is there (HTTP's `gzip` and `deflate`).
        case gzipOrZlib
    }

    /// Why input did not inflate.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The output would exceed the limit (``inflate(_:limit:)``).
        case tooLarge(limit: Int)
        /// Not compressed as announced, corrupt, or cut short.
        case corrupt(String)

        var description: String {
            switch self {
            case .tooLarge(let limit): "inflates to more than \(limit) bytes"
            case .corrupt(let reason): reason
            }
        }
    }

    private var stream = z_stream()
    private var started = false
    /// Compressed bytes supplied and not yet consumed, from ``inputStart``.
    private var input: [UInt8] = []
    private var inputStart = 0
    /// Whether the last member ended and nothing was supplied after it yet.
    private(set) var atMemberEnd = false
    /// Compressed bytes consumed and bytes produced since the start.
    private(set) var consumedTotal = 0
    private(set) var producedTotal = 0

    /// A new inflater for streams that start with `header`.
    init(header: Header) throws(Failure) {
        // 15: the largest window; +16 a gzip header only, +32 detect gzip or zlib.
        let bits: Int32 = header == .gzip ? 15 + 16 : 15 + 32
        guard inflateInit2_(&stream, bits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib did not start")
        }
        started = true
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    /// Whether every byte supplied has been consumed: supply more before asking for more output.
    var needsInput: Bool { inputStart >= input.count }

    /// Compressed bytes held: supplied and not yet consumed, with the room kept for the next supply.
    var bufferedInputBytes: Int { input.capacity }

    /// Adds compressed bytes to inflate after those already supplied.
    func supply(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if inputStart >= input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Inflates into `output`, at most its size; returns how many bytes it wrote. 0 means it needs input
    /// (``needsInput``) or the stream is at a member's end with nothing after it.
    func inflate(into output: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        guard let outBase = output.baseAddress, !output.isEmpty else { return 0 }
        var written = 0
        while written < output.count, inputStart < input.count {
            if atMemberEnd {
                // Another member follows.
                guard inflateReset(&stream) == Z_OK else { throw .corrupt("zlib did not reset") }
                atMemberEnd = false
            }
            let (code, produced, used) = input.withUnsafeBufferPointer { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: buffer.baseAddress! + inputStart)
                stream.avail_in = UInt32(clamping: buffer.count - inputStart)
                stream.next_out = (outBase + written).assumingMemoryBound(to: UInt8.self)
                stream.avail_out = UInt32(clamping: output.count - written)
                let before = (stream.avail_in, stream.avail_out)
                let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (code, Int(before.1 - stream.avail_out), Int(before.0 - stream.avail_in))
            }
            inputStart += used
            written += produced
            consumedTotal += used
            producedTotal += produced
            switch code {
            case Z_STREAM_END: atMemberEnd = true
            case Z_OK, Z_BUF_ERROR: if used == 0 && produced == 0 { return written }
            default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib code \(code)")
            }
        }
        return written
    }

    /// The bytes `compressed` inflates to (gzip, or zlib: the header says which), at most `limit` of them: a body.
    /// Throws ``Failure/tooLarge(limit:)`` as soon as the output passes the limit, having made at most `limit` bytes
    /// (plus one piece), and ``Failure/corrupt(_:)`` for a body that is not compressed as announced or is cut short.
    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let inflater = try Inflater(header: .gzipOrZlib)
        compressed.withUnsafeBytes { inflater.supply($0) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var failure: Failure?
            let produced = chunk.withUnsafeMutableBytes { buffer -> Int in
                do throws(Failure) { return try inflater.inflate(into: buffer) } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            guard output.count + produced <= limit else { throw .tooLarge(limit: limit) }
            output.append(contentsOf: chunk[0..<produced])
            if produced == 0 { break }
        }
        guard inflater.atMemberEnd, inflater.needsInput else { throw .corrupt("the compressed body is cut short") }
        return output
    }
}
