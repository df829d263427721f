import ErrorWatchTerminal
import ErrorWatchUI

/// A ``TerminalBackend`` that draws into a ``ScreenBuffer`` in memory and replays scripted input.
///
/// The test double for everything above the terminal, as swift-log ships `InMemoryLogging`: tests run the
/// real loop against it and inspect ``screen``, ``frames`` and ``writtenCells``.
public final class InMemoryBackend: TerminalBackend {
    /// Columns and rows; changed by scripted `.resized` input.
    public private(set) var size: (width: Int, height: Int)
    /// The depth reported to the loop.
    public let colorDepth: ColorDepth
    /// What the screen shows after the last ``present()``.
    public private(set) var screen: ScreenBuffer
    /// How many times ``present()`` was called.
    public private(set) var frames = 0
    /// How many cells were written in total: a measure of how much the diff saved.
    public private(set) var writtenCells = 0
    /// How many times ``invalidate()`` was called.
    public private(set) var invalidations = 0
    /// The timeouts the loop asked ``waitForInput(timeout:)`` for, in order.
    public private(set) var waits: [Duration?] = []

    private var pending: ScreenBuffer
    private var script: [[TerminalInput]]
    private let onIdle: (InMemoryBackend) -> [TerminalInput]

    /// A backend of `width` × `height` that answers each wait with the next batch of `script`, then with
    /// whatever `onIdle` returns (by default a termination request, so a loop under test always ends).
    public init(
        width: Int, height: Int, colorDepth: ColorDepth = .colors256, script: [[TerminalInput]] = [],
        waker: TerminalWaker = TerminalWaker {},
        onIdle: @escaping (InMemoryBackend) -> [TerminalInput] = { _ in [.terminationRequested(signal: 15)] }
    ) {
        self.waker = waker
        size = (width, height)
        self.colorDepth = colorDepth
        screen = ScreenBuffer(width: width, height: height)
        pending = screen
        self.script = script
        self.onIdle = onIdle
    }

    public func write(_ changes: [CellChange]) {
        writtenCells += changes.count
        for change in changes { pending.set(change.cell, x: change.x, y: change.y) }
    }

    public func invalidate() { invalidations += 1 }

    /// What wakes a waiting loop: by default nothing (every wait returns at once with the next scripted input);
    /// a test whose `onIdle` blocks until something was posted passes a waker that signals it.
    public let waker: TerminalWaker

    public func present() {
        screen = pending
        frames += 1
    }

    public func waitForInput(timeout: Duration?) -> [TerminalInput] {
        waits.append(timeout)
        let batch = script.isEmpty ? onIdle(self) : script.removeFirst()
        for input in batch {
            if case .resized(let width, let height) = input {
                size = (width, height)
                pending = ScreenBuffer(width: width, height: height)
            }
        }
        return batch
    }

    /// The screen's text, one line per row, trailing spaces kept.
    public var text: String {
        var lines: [String] = []
        for y in 0..<screen.height {
            var line = ""
            for x in 0..<screen.width {
                guard let cell = screen[x, y], !cell.isContinuation else { continue }
                line += cell.grapheme
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
