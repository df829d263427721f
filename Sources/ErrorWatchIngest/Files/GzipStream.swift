import CZlib

/// Inflates a gzip file piece by piece, so a compressed log of any size is read in bounded memory: each call takes
/// one compressed chunk and hands on what it inflates to, 64 KiB at a time. Concatenated members (as `cat a.gz b.gz`
/// makes them, and as log rotation sometimes does) are inflated one after another, as `gunzip` does.
///
/// Not `Sendable`: one ``FileTailer`` owns it, under its lock.
final class GzipStream {
    /// Why a file did not inflate.
    struct Corrupt: Error, CustomStringConvertible {
        var reason: String
        var description: String { "not a readable gzip file: \(reason)" }
    }

    private var stream = z_stream()
    private var started = false
    private var output = [UInt8](repeating: 0, count: 64 * 1024)
    /// Whether the last member ended and nothing followed it yet.
    private(set) var atMemberEnd = false

    init() throws(Corrupt) {
        // 15 + 16: the largest window, gzip headers only.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Corrupt(reason: "zlib did not start")
        }
        started = true
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    /// Inflates all of `compressed`, handing each piece of output to `body`.
    func inflate(_ compressed: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) throws(Corrupt) {
        guard let base = compressed.baseAddress, !compressed.isEmpty else { return }
        var consumed = 0
        while consumed < compressed.count {
            if atMemberEnd {
                guard inflateReset(&stream) == Z_OK else { throw Corrupt(reason: "zlib did not reset") }
                atMemberEnd = false
            }
            let (code, produced, used) = output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self) + consumed)
                stream.avail_in = UInt32(compressed.count - consumed)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let before = stream.avail_in
                let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (code, out.count - Int(stream.avail_out), Int(before - stream.avail_in))
            }
            consumed += used
            if produced > 0 { output.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
            switch code {
            case Z_STREAM_END: atMemberEnd = true
            case Z_OK, Z_BUF_ERROR: if used == 0 && produced == 0 { return }
            default: throw Corrupt(reason: stream.msg.map { String(cString: $0) } ?? "zlib code \(code)")
            }
        }
    }
}
