import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Errors a terminal backend reports when it cannot start.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    /// Standard output is not a terminal, so a full-screen dashboard cannot run.
    case notATerminal
    /// ncurses could not initialise the terminal (unknown `$TERM`, for example).
    case initializationFailed(String)
    /// A system call failed with `errno`.
    case systemCall(String, Int32)

    public var description: String {
        switch self {
        case .notATerminal:
            "standard output is not a terminal; use `errorwatch render` to print a screen as text"
        case .initializationFailed(let why):
            "cannot start the terminal: \(why); use `errorwatch render` to print a screen as text"
        case .systemCall(let call, let code):
            "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
