import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files to remove when the process dies of a signal rather than through `q`: the listeners' socket files, which
/// would otherwise be left behind for the next start to find stale.
///
/// A signal handler may not allocate or lock, so each path is prepared beforehand as a C string in a fixed slot;
/// the handler only reads the slots and calls `unlink`, which is async-signal-safe. At most ``capacity`` paths.
///
/// ```swift
/// try await listener.start()
/// CrashCleanup.removeOnAbnormalExit("/tmp/ew.sock")
/// …
/// CrashCleanup.forget("/tmp/ew.sock")        // before a normal shutdown removes it itself
/// ```
public enum CrashCleanup {
    /// How many paths can be registered at once.
    public static let capacity = 16

    /// Registers `path` to be removed if the process dies of a crash signal or a second termination signal.
    /// Returns `false` when every slot is taken.
    @discardableResult
    public static func removeOnAbnormalExit(_ path: String) -> Bool {
        registration.withLock { _ in
            for index in 0..<capacity where slots[index].load(ordering: .acquiring) == 0 {
                guard let copy = strdup(path) else { return false }
                slots[index].store(Int(bitPattern: copy), ordering: .releasing)
                return true
            }
            return false
        }
    }

    /// Stops removing `path` on an abnormal exit (a normal shutdown removes what is still ours).
    public static func forget(_ path: String) {
        registration.withLock { _ in
            for index in 0..<capacity {
                let bits = slots[index].load(ordering: .acquiring)
                guard bits != 0, let pointer = UnsafeMutablePointer<CChar>(bitPattern: bits),
                    String(cString: pointer) == path
                else { continue }
                slots[index].store(0, ordering: .releasing)
                // Not freed: a handler running on another thread may be reading it; a few bytes per path leak.
            }
        }
    }

    /// Kills the process group `group` (`errorwatch run`'s command and what it started) if the process dies of a
    /// crash signal or a second termination signal: the child is in a session of its own, so no hang-up would reach
    /// it, and a command left running would hold its ports against the next start. SIGKILL, since nobody is left to
    /// follow a SIGTERM up. One group at a time; a later call replaces an earlier one.
    public static func killGroupOnAbnormalExit(_ group: Int32) {
        childGroup.store(group, ordering: .releasing)
    }

    /// Stops killing `group` on an abnormal exit (it ended, or is being ended the normal way).
    public static func forgetGroup(_ group: Int32) {
        _ = childGroup.compareExchange(expected: group, desired: 0, ordering: .acquiringAndReleasing)
    }

    /// Removes every registered path and kills the registered process group. Called from signal handlers: no
    /// allocation, no lock (`unlink` and `kill` are async-signal-safe).
    static func removeAll() {
        for index in 0..<capacity {
            let bits = slots[index].load(ordering: .acquiring)
            if bits != 0, let pointer = UnsafePointer<CChar>(bitPattern: bits) { unlink(pointer) }
        }
        let group = childGroup.load(ordering: .acquiring)
        if group > 0 { kill(-group, SIGKILL) }
    }

    /// The process group to kill on an abnormal exit, or 0.
    private static let childGroup = Atomic<Int32>(0)

    /// Serialises registrations (never taken by a handler).
    private static let registration = Mutex<Void>(())

    /// The slots: each holds a `strdup`'ed path as its address bits, or 0.
    ///
    /// `nonisolated(unsafe)` is sound here: the pointer is allocated and every slot initialised once, when this
    /// constant is first used (Swift's lazy globals are initialised exactly once, thread-safely), and is never
    /// reassigned or freed; afterwards the slots are only accessed through their own atomic operations.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let pointer = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for index in 0..<capacity { (pointer + index).initialize(to: Atomic(0)) }
        return pointer
    }()
}
