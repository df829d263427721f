import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-pipe: other threads (and signal handlers) write a byte to wake the terminal thread out of `poll`.
///
/// Byte 0 means "actions are waiting"; any other byte is a signal number.
final class WakePipe: Sendable {
    let readFD: Int32
    let writeFD: Int32
    /// Set while a wake byte is in flight, so a storm of posts writes one byte, not thousands.
    private let pending = Atomic<Bool>(false)

    init() throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalError.systemCall("pipe", errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Wakes the reader; cheap and non-blocking, callable from any thread.
    func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 0
        _ = write(writeFD, &byte, 1)
    }

    /// Reads every pending byte; returns the signal numbers among them.
    func drain() -> [Int32] {
        pending.store(false, ordering: .releasing)
        var signals: [Int32] = []
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &bytes, bytes.count)
            if n <= 0 { break }
            for b in bytes[0..<n] where b != 0 { signals.append(Int32(b)) }
        }
        return signals
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}

