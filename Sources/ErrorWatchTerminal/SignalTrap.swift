import CNCurses
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// Signal handlers may only touch async-signal-safe state: these atomics, written by the terminal thread
// before the handlers are installed and read by the handlers afterwards.

/// The write end of the wake pipe, or -1 when no dashboard is running.
private let signalWakeFD = Atomic<Int32>(-1)
/// Whether ncurses currently owns the screen (so a crash handler must call `endwin`).
private let screenActive = Atomic<Bool>(false)
/// The saved original stderr while it is redirected into the capture file, or -1.
private let savedStderrFD = Atomic<Int32>(-1)
/// The capture file that holds stderr output while the screen is active, or -1.
private let captureFD = Atomic<Int32>(-1)
/// How many termination signals arrived; the second one forces an exit even if the loop is stuck.
private let terminationCount = Atomic<Int>(0)
/// Whether our handlers are installed: a second install would save our own crash handler as the "previous" one
/// and chain into itself.
private let handlersInstalled = Atomic<Bool>(false)

/// The handlers that were installed for crash signals before ours (the Swift runtime's backtracer, say),
/// indexed by signal number, so our handler can restore the terminal and then chain to them.
///
/// `nonisolated(unsafe)` is sound here: the storage is allocated once at load, written only by
/// `SignalTrap.install()` on the terminal thread *before* `sigaction` installs our handler for that
/// signal (the `sigaction` call orders the write before any delivery), and afterwards only read: by `onCrash`,
/// which calls the saved handler from its copy of the entry, and by `uninstall()` on the terminal thread.
nonisolated(unsafe) private let previousCrashActions: UnsafeMutablePointer<sigaction> = {
    let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    p.initialize(repeating: sigaction(), count: 65)
    return p
}()

/// Every signal whose default action ends the process without a core dump, plus SIGQUIT: each ends the dashboard
/// the way `q` does (terminal restored, socket removed, exit 0).
let terminationSignals: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
    SIGPWR, SIGSTKFLT,
]
/// Signals that mean the process itself failed: the terminal is restored, then the previous handler (the Swift
/// runtime's backtracer) prints the backtrace and the process ends with the signal.
let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

private func onTermination(_ signal: Int32) {
    if terminationCount.add(1, ordering: .relaxed).newValue >= 2 {
        // The loop did not shut down after the first signal: restore the terminal and leave now.
        emergencyRestore()
        CrashCleanup.removeAll()
        _exit(128 + signal)
    }
    let fd = signalWakeFD.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(fd, &byte, 1)
}

private func onWindowChange(_ signal: Int32) {
    let fd = signalWakeFD.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(fd, &byte, 1)
}

private func onCrash(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    emergencyRestore()
    CrashCleanup.removeAll()
    // Call whatever handled this signal before us (the Swift runtime's backtracer prints the backtrace). It may
    // return: it does for a SIGSEGV sent with kill, and the dashboard would then draw on. So whatever it did, the
    // process ends with the signal: the default action, raised now and delivered when this handler returns.
    let previous = previousCrashActions[Int(signal)]
    if previous.sa_flags & SA_SIGINFO != 0 {
        previous.__sigaction_handler.sa_sigaction?(signal, info, context)
    } else if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
        handler(signal)  // not SIG_DFL (0) nor SIG_IGN (1)
    }
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&fallback.sa_mask)
    sigaction(signal, &fallback, nil)
    raise(signal)
}

/// Leaves curses mode and puts stderr back, copying what was held. Used from signal handlers, so it sticks to
/// `endwin` (what htop does on a crash) and plain system calls.
private func emergencyRestore() {
    if screenActive.exchange(false, ordering: .relaxed) {
        endwin()
    }
    let saved = savedStderrFD.exchange(-1, ordering: .relaxed)
    let capture = captureFD.exchange(-1, ordering: .relaxed)
    if saved >= 0 {
        dup2(saved, STDERR_FILENO)
        if capture >= 0 {
            lseek(capture, 0, SEEK_SET)
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &buffer) { raw in
                var afterC2 = false
                while true {
                    let n = read(capture, raw.baseAddress, raw.count)
                    if n <= 0 { break }
                    // Held text may carry escape sequences (a library's log line quoting hostile input). A signal
                    // handler cannot run the Sanitizer (it allocates), so controls are masked byte by byte: C0 but
                    // newline and tab, DEL, and C1 (UTF-8 C2 80–9F) become `?`, so nothing changes the terminal.
                    for index in 0..<n {
                        let byte = raw[index]
                        if afterC2, byte >= 0x80, byte <= 0x9F {
                            // At a chunk's start the lead byte is already out: alone, it is only invalid UTF-8.
                            if index > 0 { raw[index - 1] = UInt8(ascii: "?") }
                            raw[index] = UInt8(ascii: "?")
                        } else if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F {
                            raw[index] = UInt8(ascii: "?")
                        }
                        afterC2 = byte == 0xC2
                    }
                    _ = write(STDERR_FILENO, raw.baseAddress, n)
                }
            }
        }
    }
}

/// Installs and removes the dashboard's signal handlers and the stderr hold.
enum SignalTrap {
    /// Installs handlers: termination signals and SIGWINCH write to `wakeFD`; crash signals restore the terminal.
    /// Call before `initscr`, so ncurses sees a handler for SIGWINCH and does not install its own.
    static func install(wakeFD: Int32) {
        signalWakeFD.store(wakeFD, ordering: .relaxed)
        terminationCount.store(0, ordering: .relaxed)
        guard !handlersInstalled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        installAlternateStack()
        for sig in terminationSignals { setHandler(sig) { onTermination($0) } }
        setHandler(SIGWINCH) { onWindowChange($0) }
        for sig in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { onCrash($0, $1, $2) }
            sigemptyset(&action.sa_mask)
            // On the alternate stack, so a stack overflow can still restore the terminal.
            action.sa_flags = Int32(
                bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND) | UInt32(truncatingIfNeeded: SA_ONSTACK)
                    | UInt32(truncatingIfNeeded: SA_SIGINFO))
            sigaction(sig, nil, previousCrashActions.advanced(by: Int(sig)))
            sigaction(sig, &action, nil)
        }
    }

    /// Puts the default handlers back (and the crash handlers that were there before).
    static func uninstall() {
        signalWakeFD.store(-1, ordering: .relaxed)
        guard handlersInstalled.exchange(false, ordering: .acquiringAndReleasing) else { return }
        for sig in terminationSignals + [SIGWINCH] { signal(sig, SIG_DFL) }
        for sig in crashSignals { sigaction(sig, previousCrashActions.advanced(by: Int(sig)), nil) }
    }

    /// Gives this thread an alternate signal stack (once), for crash handlers that run after a stack overflow.
    private static func installAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        let size = 64 * 1024
        guard let memory = malloc(size) else { return }
        var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: size)
        // The memory is deliberately never freed: the stack must outlive every signal that may still arrive.
        if sigaltstack(&stack, nil) != 0 { free(memory) }
    }

    private static func setHandler(_ sig: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESTART))
        sigaction(sig, &action, nil)
    }

    /// Records that curses owns the screen, so a crash handler knows to call `endwin`.
    static func screenDidStart() { screenActive.store(true, ordering: .relaxed) }

    /// Records that curses released the screen.
    static func screenDidStop() { screenActive.store(false, ordering: .relaxed) }

    /// Redirects stderr into an unlinked temporary file until ``releaseStderr()``.
    static func holdStderr() {
        var template = Array("/tmp/errorwatch-stderr-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        ew_flush_stderr()
        let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
        guard saved >= 0 else {
            close(fd)
            return
        }
        captureFD.store(fd, ordering: .relaxed)
        savedStderrFD.store(saved, ordering: .relaxed)
        dup2(fd, STDERR_FILENO)
    }

    /// Puts stderr back and prints what was written to it while it was held.
    /// Call after `endwin`.
    static func releaseStderr() {
        ew_flush_stderr()
        let capture = captureFD.load(ordering: .relaxed)
        let saved = savedStderrFD.load(ordering: .relaxed)
        screenActive.store(false, ordering: .relaxed)
        emergencyRestore()
        if capture >= 0 { close(capture) }
        if saved >= 0 { close(saved) }
    }
}
