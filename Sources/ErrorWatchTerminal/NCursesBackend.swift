import CNCurses
import ErrorStreaming
import ErrorWatchUI

#if canImport(Glibc)
    import Glibc
#endif

/// The real terminal: ncurses (wide-character build) drawing ``ScreenBuffer`` diffs and reading keys.
///
/// Every call must come from the thread that called ``start(options:)``. Other threads reach that thread
/// through ``waker``. ``stop()`` restores the terminal; signal handlers restore it too on SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT and on crash signals, and stderr written while the screen is active is printed after.
public final class NCursesBackend: TerminalBackend {
    /// How to start the terminal.
    public struct Options: Sendable {
        /// Milliseconds ncurses waits after ESC for the rest of an escape sequence.
        public var escapeDelay: Int32 = 25
        /// Forces monochrome even on a colour terminal (`--no-color`, `NO_COLOR`).
        public var monochrome = false
        /// Options; the defaults suit an interactive dashboard.
        public init(escapeDelay: Int32 = 25, monochrome: Bool = false) {
            self.escapeDelay = escapeDelay
            self.monochrome = monochrome
        }
    }

    /// The palette the terminal offers: 256, 16 or 8 colours, or none.
    public private(set) var colorDepth: ColorDepth = .monochrome
    /// Columns and rows, refreshed on every resize.
    public private(set) var size: (width: Int, height: Int) = (0, 0)
    /// Wakes the terminal thread from any thread (used to deliver posted actions promptly).
    public let waker: TerminalWaker

    private let wakePipe: WakePipe
    /// Where keys come from: stdin, or `/dev/tty` when stdin carries events (`producer | errorwatch -`).
    private let inputFD: Int32
    private var pairs = ColorPairCache()
    private var active = false
    private var fullRedrawPending = false

    /// Starts curses mode. Call `setlocale(LC_ALL, "")` before (``TerminalEnvironment/prepareLocale()``).
    public init(options: Options = Options()) throws(TerminalError) {
        guard isatty(STDOUT_FILENO) == 1, let input = Self.keyboardDescriptor() else { throw .notATerminal }
        inputFD = input
        let pipe = try WakePipe()
        wakePipe = pipe
        waker = TerminalWaker { pipe.wake() }

        SignalTrap.install(wakeFD: pipe.writeFD)
        guard let screen = ew_newterm(input) else {
            SignalTrap.uninstall()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw .initializationFailed("ncurses cannot drive TERM=\(term)")
        }
        _ = set_term(screen)
        // A terminal that cannot address the cursor (TERM=dumb) would show the footer alone: refuse it, as an
        // unknown TERM is refused, before the screen is taken.
        guard ew_can_address_cursor() != 0 else {
            endwin()
            delscreen(screen)
            SignalTrap.uninstall()
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw .initializationFailed("TERM=\(term) cannot move the cursor")
        }
        SignalTrap.screenDidStart()
        SignalTrap.holdStderr()
        active = true

        cbreak()
        noecho()
        nonl()
        intrflush(ew_stdscr(), false)
        keypad(ew_stdscr(), true)
        nodelay(ew_stdscr(), true)
        _ = curs_set(0)
        _ = set_escdelay(options.escapeDelay)
        leaveok(ew_stdscr(), true)

        if !options.monochrome, has_colors() {
            start_color()
            use_default_colors()
            let colors = ew_colors()
            // ncurses addresses colours through a palette of at most 256 entries, so a truecolor terminal is
            // driven as a 256-colour one; themes are fitted to that palette by ErrorWatchUI.
            colorDepth = colors >= 256 ? .colors256 : colors >= 16 ? .colors16 : colors >= 8 ? .colors8 : .monochrome
        }
        refreshSize()
        _ = wclear(ew_stdscr())
    }

    deinit { stop() }

    /// Restores the terminal (`endwin`), removes the signal handlers and prints held stderr. Idempotent.
    public func stop() {
        guard active else { return }
        active = false
        _ = curs_set(1)
        endwin()
        SignalTrap.screenDidStop()
        SignalTrap.releaseStderr()
        SignalTrap.uninstall()
    }

    private func refreshSize() {
        var rows: Int32 = 0
        var cols: Int32 = 0
        if ew_window_size(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0 {
            // ncurses keeps three screens of the size it is told: only the part the dashboard draws.
            let drawn = ScreenState.drawnSize(width: Int(cols), height: Int(rows))
            (rows, cols) = (Int32(drawn.height), Int32(drawn.width))
            if Int(rows) != Int(ew_lines()) || Int(cols) != Int(ew_cols()) {
                resizeterm(rows, cols)
            }
        }
        size = (Int(ew_getmaxx(ew_stdscr())), Int(ew_getmaxy(ew_stdscr())))
    }

    public func write(_ changes: [CellChange]) {
        let screen = ew_stdscr()
        var wide = [wchar_t](repeating: 0, count: Int(CCHARW_MAX) + 1)
        for change in changes {
            let cell = change.cell
            if cell.isContinuation { continue }
            var count = 0
            for scalar in cell.grapheme.unicodeScalars where count < Int(CCHARW_MAX) {
                wide[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            if count == 0 {
                wide[0] = 0x20
                count = 1
            }
            wide[count] = 0
            let pair = colorDepth == .monochrome ? 0 : pairs.pair(for: cell.style, depth: colorDepth)
            let attrs = attributes(of: cell.style)
            _ = ew_put_wide(screen, Int32(change.y), Int32(change.x), wide, attrs, pair)
            // ncurses keeps only the first wide character of a cluster (a flag, a ZWJ family). When that character
            // is narrower than the cell the layout gave the cluster, blank the continuation column, or it would
            // keep whatever an earlier frame drew there.
            if cell.width == 2, ew_wcwidth(wide[0]) < 2 {
                var blank: [wchar_t] = [0x20, 0]
                _ = ew_put_wide(screen, Int32(change.y), Int32(change.x + 1), &blank, attrs, pair)
            }
        }
    }

    private func attributes(of style: CellStyle) -> attr_t {
        var result = ew_a_normal()
        if style.attributes.contains(.bold) { result |= ew_a_bold() }
        if style.attributes.contains(.dim) { result |= ew_a_dim() }
        if style.attributes.contains(.underline) { result |= ew_a_underline() }
        if style.attributes.contains(.reverse) { result |= ew_a_reverse() }
        return result
    }

    public func invalidate() { fullRedrawPending = true }

    public func present() {
        if fullRedrawPending {
            fullRedrawPending = false
            clearok(ew_curscr(), true)
        }
        wnoutrefresh(ew_stdscr())
        doupdate()
    }

    /// Alt+key reaches us as Esc immediately followed by the key, in the same read. The dashboard binds no Alt
    /// chords, so the pair is dropped rather than taken as Esc (close help, clear filter) and then the key (`q`!).
    static func dropAltChords(_ inputs: inout [TerminalInput]) {
        var result: [TerminalInput] = []
        var index = 0
        while index < inputs.count {
            if inputs[index] == .key(.escape), index + 1 < inputs.count, case .key(.character) = inputs[index + 1] {
                index += 2
                continue
            }
            result.append(inputs[index])
            index += 1
        }
        inputs = result
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: max(0, duration.wholeMilliseconds(roundingUp: true)))
    }

    /// Whether keys can be read: stdin when it is a terminal, else the controlling terminal (`/dev/tty`), as
    /// `less` and `fzf` do when their input is a pipe. `false` when there is no terminal at all.
    public static var hasKeyboard: Bool {
        if isatty(STDIN_FILENO) == 1 { return true }
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    private static func keyboardDescriptor() -> Int32? {
        if isatty(STDIN_FILENO) == 1 { return STDIN_FILENO }
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard isatty(descriptor) == 1 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    public func waitForInput(timeout: Duration?) -> [TerminalInput] {
        var fds = [
            pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0),
        ]
        let millis: Int32 = timeout.map { Self.milliseconds($0) } ?? -1
        _ = poll(&fds, 2, millis)

        var inputs: [TerminalInput] = []
        // The terminal went away without a SIGHUP (we are not its controlling process, say): poll would report it
        // at once forever, so leave instead of spinning.
        if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, fds[0].revents & Int16(POLLIN) == 0 {
            return [.terminationRequested(signal: SIGHUP)]
        }
        var resized = false
        for signal in wakePipe.drain() {
            if signal == SIGWINCH {
                resized = true
            } else {
                inputs.append(.terminationRequested(signal: signal))
            }
        }
        var ch: wint_t = 0
        while true {
            let status = wget_wch(ew_stdscr(), &ch)
            if status == ERR { break }
            if status == ew_key_code_yes() {
                if Int32(ch) == ew_key_resize() {
                    resized = true
                } else if let key = KeyDecoder.functionKey(Int32(ch)) {
                    inputs.append(.key(key))
                }
            } else if let key = KeyDecoder.character(UInt32(ch)) {
                inputs.append(.key(key))
            }
        }
        Self.dropAltChords(&inputs)
        if resized {
            // However many SIGWINCH and KEY_RESIZE arrived, report the final size once and repaint in full:
            // terminals reflow the old contents on resize, so no cell on screen can be trusted.
            refreshSize()
            invalidate()
            inputs.append(.resized(width: size.width, height: size.height))
        }
        return inputs
    }
}
