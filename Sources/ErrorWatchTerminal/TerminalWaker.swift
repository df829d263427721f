import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes the terminal thread from any thread. Handed out by a backend; safe to keep after it stops.
public struct TerminalWaker: Sendable {
    private let action: @Sendable () -> Void
    /// Creates a waker that runs `action`; backends make these, tests may make their own.
    public init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    /// Wakes the terminal thread so it picks up posted actions.
    public func wake() { action() }
}
