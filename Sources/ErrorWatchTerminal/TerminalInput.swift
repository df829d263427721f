import ErrorWatchUI

/// Something the terminal reported: a key, a new size, a signal, or nothing but a wake-up.
public enum TerminalInput: Sendable, Hashable {
    /// A key press, already decoded.
    case key(Key)
    /// The terminal now has this many columns and rows (bursts of resizes are coalesced into one).
    case resized(width: Int, height: Int)
    /// A termination signal arrived (SIGINT, SIGTERM, SIGHUP or SIGQUIT); the loop should shut down cleanly.
    case terminationRequested(signal: Int32)
}
