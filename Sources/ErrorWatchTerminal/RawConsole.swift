import ErrorStreaming
import ErrorWatchUI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain console for programs that print lines rather than draw a screen (`errorwatch demo`): keys without
/// echo or line buffering while signals still work, restored by ``restore()``. SIGINT, SIGTERM and SIGHUP end
/// ``next(timeout:)`` with `.quit` instead of killing the process, so the caller restores the terminal and shuts
/// down in order. Its wake pipe is the terminal module's ``WakePipe``, shared with the ncurses backend's design.
///
/// One thread owns it and makes every call.
public final class RawConsole {
    /// What ``next(timeout:)`` saw.
    public enum Input: Equatable, Sendable {
        /// A printable key.
        case key(Key)
        /// Nothing within the timeout (or an unprintable byte).
        case timeout
        /// Standard input was closed (a pipe ran out).
        case endOfInput
        /// A termination signal arrived.
        case quit
    }

    private var original = termios()
    private let raw: Bool
    private let wake: WakePipe?
    private var inputOpen = true

    /// Takes the console; `raw` turns off echo and line buffering (only when standard input is a terminal).
    public init(raw: Bool) {
        wake = try? WakePipe()
        self.raw = raw && tcgetattr(STDIN_FILENO, &original) == 0
        consoleSignalFD.store(wake?.writeFD ?? -1, ordering: .relaxed)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { number in
                // Only async-signal-safe calls here: one write to a non-blocking pipe.
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(consoleSignalFD.load(ordering: .relaxed), &byte, 1)
            }
        }
        if self.raw {
            var changed = original
            changed.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &changed)
        }
    }

    /// Waits up to `timeout` for a key, end of input or a termination signal.
    public func next(timeout: Duration) -> Input {
        var fds = [
            pollfd(fd: inputOpen ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake?.readFD ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&fds, 2, Int32(clamping: timeout.wholeMilliseconds())) > 0 else { return .timeout }
        if fds[1].revents != 0, let wake, !wake.drain().isEmpty { return .quit }
        guard fds[0].revents != 0 else { return .timeout }
        var byte: UInt8 = 0
        guard read(STDIN_FILENO, &byte, 1) == 1 else {
            inputOpen = false
            return .endOfInput
        }
        guard byte >= 0x20, byte < 0x7F else { return .timeout }
        return .key(.character(Character(Unicode.Scalar(byte))))
    }

    /// Gives the terminal back as it was and the signals their default actions.
    public func restore() {
        if raw { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        for sig in [SIGINT, SIGTERM, SIGHUP] { signal(sig, SIG_DFL) }
        consoleSignalFD.store(-1, ordering: .relaxed)
    }
}

/// The console's wake pipe, read by its signal handlers (an atomic, so the handler touches nothing else).
private let consoleSignalFD = Atomic<Int32>(-1)
