import ErrorWatchUI

/// The I/O side of the dashboard: draws cell changes and reports input.
///
/// Implementations are not thread-safe: one thread owns a backend and makes every call on it
/// (ncurses itself is not thread-safe). Other threads wake that thread with ``TerminalWaker``.
public protocol TerminalBackend: AnyObject {
    /// Columns and rows available now.
    var size: (width: Int, height: Int) { get }
    /// The colour depth the terminal supports, decided once at start.
    var colorDepth: ColorDepth { get }
    /// Writes changed cells; they become visible at the next ``present()``.
    func write(_ changes: [CellChange])
    /// Forgets what is on the screen so that the next frame is written in full (Ctrl-L, resize).
    func invalidate()
    /// Makes written cells visible.
    func present()
    /// Blocks until input arrives, a waker fires, or `timeout` passes (`nil`: wait indefinitely). Never spins.
    func waitForInput(timeout: Duration?) -> [TerminalInput]
    /// Wakes ``waitForInput(timeout:)`` from any thread (posted actions are waiting).
    var waker: TerminalWaker { get }
}
