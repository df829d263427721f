import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking loopback TCP client for the hostile tests: it sends, trickles and waits for the receiver to close,
/// as an attacker would. Every wait is bounded by a socket timeout (a failed test, never a hang); call it through
/// ``offPool(_:)`` so it never blocks the test's cooperative pool.
final class RawSocket: Sendable {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (for a client that reads
    /// nothing and should be noticed soon).
    init?(port: Int, receiveBuffer: Int? = nil) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            return nil
        }
        self.fd = fd
        setTimeout(SO_RCVTIMEO, .seconds(30))
    }

    deinit { Glibc.close(fd) }

    private func setTimeout(_ option: Int32, _ duration: Duration) {
        let seconds = duration.components.seconds
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(duration.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `bytes`; false when the receiver closed, or (with `timeout`) stopped taking bytes for that long.
    @discardableResult
    func send(_ bytes: [UInt8], timeout: Duration = .seconds(30)) -> Bool {
        setTimeout(SO_SNDTIMEO, timeout)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// Sends `bytes` one at a time, `every` apart, until they are all sent or the receiver closes; true when it
    /// closed (during the trickle or within the receive timeout after it).
    func trickle(_ bytes: [UInt8], every interval: Duration) -> Bool {
        for byte in bytes {
            guard send([byte]), !peerClosed() else { return true }
            // The attack's pace (a slowloris sends a byte now and then), not a wait for something to happen: the
            // test's outcome is decided by the receiver closing, which `peerClosed` and `waitForClose` observe.
            Thread.sleep(forTimeInterval: interval / .seconds(1))
        }
        return waitForClose()
    }

    /// Whether the receiver has closed, without waiting.
    private func peerClosed() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads (and drops) until the receiver closes; false when it did not within the receive timeout.
    func waitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        }
    }

    /// Reads one answer.
    func readAnswer() -> RawHTTPResponse? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let parsed = RawHTTP.parse(received, closed: false) { return parsed }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            received += buffer[0..<n]
        }
    }

    /// Closes the connection now.
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }
}

/// Runs blocking socket work on its own thread, off the test's cooperative pool.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
