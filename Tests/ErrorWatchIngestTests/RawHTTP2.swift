import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/2 frames written by hand over a ``RawSocket``, for a client no HTTP/2 library would be: one that opens more
/// streams than the server allows and never sends a message on them. A real client library (grpc-swift's, or
/// swift-nio-http2's `NIOHTTP2Handler`) queues streams past the peer's `SETTINGS_MAX_CONCURRENT_STREAMS` on its own
/// side, so the server would never see the excess. Header blocks use HPACK literals without indexing (RFC 7541
/// 6.2.2), which every decoder must take; the server's answers are read as frames only (their header blocks are not
/// decoded): which streams were reset, with which code, and which were ended by the server's trailers.
struct RawHTTP2 {
    /// One frame as read: type, flags, stream and payload.
    struct Frame {
        var type: UInt8
        var flags: UInt8
        var stream: UInt32
        var payload: [UInt8]
    }

    static let data: UInt8 = 0
    static let headers: UInt8 = 1
    static let resetStream: UInt8 = 3
    static let settings: UInt8 = 4
    static let ping: UInt8 = 6
    static let goAway: UInt8 = 7
    static let endStream: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let ack: UInt8 = 0x1
    /// RST_STREAM's REFUSED_STREAM (RFC 9113 7): the stream was not processed and may be retried.
    static let refusedStream: UInt32 = 7

    /// The client connection preface, an empty SETTINGS and the acknowledgement of the server's SETTINGS.
    static var preface: [UInt8] {
        Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(settings, flags: 0, stream: 0, [])
            + frame(settings, flags: ack, stream: 0, [])
    }

    static func frame(_ type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + withUnsafeBytes(of: (stream & 0x7FFF_FFFF).bigEndian) { Array($0) } + payload
    }

    /// A HEADERS frame opening `stream` as a gRPC call of `path`, without END_STREAM: the message is to follow.
    /// `extra` fields follow the required ones (`grpc-accept-encoding`, say).
    static func openCall(
        stream: UInt32, path: String, authority: String, extra: [(String, String)] = []
    ) -> [UInt8] {
        let fields = [
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", authority),
            ("content-type", "application/grpc"), ("te", "trailers"),
        ] + extra
        var block: [UInt8] = []
        for (name, value) in fields {
            // Literal header field without indexing, new name; lengths under 127 fit the 7-bit prefix.
            block.append(0x00)
            block.append(UInt8(name.utf8.count))
            block += Array(name.utf8)
            block.append(UInt8(value.utf8.count))
            block += Array(value.utf8)
        }
        return frame(headers, flags: endHeaders, stream: stream, block)
    }

    /// A DATA frame carrying one uncompressed gRPC message on `stream` and ending the client's side of it.
    static func message(stream: UInt32, _ bytes: [UInt8]) -> [UInt8] {
        let length = UInt32(bytes.count)
        let prefix: [UInt8] = [0] + withUnsafeBytes(of: length.bigEndian) { Array($0) }
        return frame(data, flags: endStream, stream: stream, prefix + bytes)
    }

    /// Frames read from `socket` until `done` says so for what was read, the server closes, or `timeout` passes
    /// without a byte; PINGs are answered as a client must.
    static func read(
        _ socket: RawSocket, timeout: Duration, until done: ([Frame]) -> Bool
    ) -> (frames: [Frame], closed: Bool) {
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(socket.fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var frames: [Frame] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(frames) {
            let n = recv(socket.fd, &buffer, buffer.count, 0)
            if n <= 0 { return (frames, n == 0) }
            pending += buffer[0..<n]
            while pending.count >= 9 {
                let length = Int(pending[0]) << 16 | Int(pending[1]) << 8 | Int(pending[2])
                guard pending.count >= 9 + length else { break }
                let stream = UInt32(pending[5]) << 24 | UInt32(pending[6]) << 16 | UInt32(pending[7]) << 8
                    | UInt32(pending[8])
                let frame = Frame(
                    type: pending[3], flags: pending[4], stream: stream & 0x7FFF_FFFF,
                    payload: Array(pending[9..<9 + length]))
                pending.removeFirst(9 + length)
                if frame.type == ping, frame.flags & ack == 0 {
                    socket.send(Self.frame(ping, flags: ack, stream: 0, frame.payload))
                }
                frames.append(frame)
            }
        }
        return (frames, false)
    }
}

extension RawHTTP2.Frame {
    /// RST_STREAM's error code.
    var errorCode: UInt32? {
        guard type == RawHTTP2.resetStream, payload.count == 4 else { return nil }
        return payload.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
