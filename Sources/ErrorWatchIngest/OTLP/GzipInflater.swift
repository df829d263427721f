import ErrorWatchWire
import CZlib

/// Inflates a `Content-Encoding: gzip` body with zlib, never past a limit: a small body that would inflate to
/// gigabytes (a gzip bomb) is stopped as soon as its output passes `limit`, having used at most `limit` bytes.
enum GzipInflater {
    /// Why a body did not inflate.
    enum Failure: Error, Equatable {
        /// The output would exceed the limit.
        case tooLarge(limit: Int)
        /// Not gzip, corrupt, or cut short.
        case corrupt(String)
    }

    /// The bytes `compressed` inflates to (gzip, or zlib: the header says which), at most `limit` of them.
    /// Concatenated gzip members are inflated one after another, as `gunzip` does.
    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: the largest window, and detect a gzip or zlib header by itself.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib did not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var consumed = 0
        while true {
            let (code, produced, used) = compressed.withUnsafeBufferPointer { input in
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress.map { $0 + consumed })
                    stream.avail_in = UInt32(input.count - consumed)
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    let before = stream.avail_in
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, out.count - Int(stream.avail_out), Int(before - stream.avail_in))
                }
            }
            consumed += used
            guard output.count + produced <= limit else { throw .tooLarge(limit: limit) }
            output.append(contentsOf: chunk[0..<produced])
            switch code {
            case Z_STREAM_END:
                // Another gzip member may follow; anything else after the end is an error.
                guard consumed < compressed.count else { return output }
                guard inflateReset(&stream) == Z_OK else { throw .corrupt("zlib did not reset") }
            case Z_OK:
                if used == 0 && produced == 0 { throw .corrupt("the compressed body is cut short") }
            case Z_BUF_ERROR:
                throw .corrupt("the compressed body is cut short")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "code \(code)"
                throw .corrupt(message)
            }
        }
    }
}
