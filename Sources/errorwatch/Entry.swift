import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's entry point: makes a crash leave at once, then runs the command line.
@main
enum Entry {
    static func main() {
        preferNonInteractiveBacktracer()
        ErrorWatchCommand.main()
    }

    /// The Swift runtime's backtracer, on a crash in a terminal, waits at an interactive prompt (30 s by default),
    /// and the dashboard, its terminal already restored, would resume drawing meanwhile. The backtracer reads
    /// `SWIFT_BACKTRACE` when the runtime starts, so when the user has not set it, set `interactive=no` and start
    /// again in place (`exec`, same pid, same arguments): a crash then prints its backtrace and exits. A user who
    /// wants the prompt sets `SWIFT_BACKTRACE=interactive=yes` (README, "Command line").
    static func preferNonInteractiveBacktracer() {
        guard getenv("SWIFT_BACKTRACE") == nil else { return }
        setenv("SWIFT_BACKTRACE", "interactive=no", 1)
        // If the exec fails (no /proc), go on without it: only the prompt is at stake.
        _ = execv("/proc/self/exe", CommandLine.unsafeArgv)
    }
}
