import Foundation
import Testing

@testable import ErrorWatchTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// What is written to stderr while the screen is active is held, then printed after the terminal is restored.
struct StderrHoldTests {
    @Test func heldOutputAppearsOnlyAfterRelease() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let original = dup(STDERR_FILENO)
        dup2(fds[1], STDERR_FILENO)
        defer {
            dup2(original, STDERR_FILENO)
            close(original)
            close(fds[0])
            close(fds[1])
        }

        SignalTrap.holdStderr()
        let message = "errorwatch-test: written while the screen was active \u{1B}]0;pwned\u{07}\u{9B}2J\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        // Other tests run in parallel and may write to the process's stderr too (swift-log's default handler):
        // what matters is that this message does not get through before the release, and does after it.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let early = read(fds[0], &buffer, buffer.count)
        let earlyText = early > 0 ? String(decoding: buffer[0..<early], as: UTF8.self) : ""
        #expect(!earlyText.contains("written while the screen was active"), "held while the screen is active")

        SignalTrap.releaseStderr()
        let count = read(fds[0], &buffer, buffer.count)
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        #expect(text.contains("written while the screen was active"))
        // Escape sequences in held text are masked, so nothing printed after the screen changes the terminal.
        #expect(text.contains("active ?]0;pwned?"))
        #expect(text.contains("?2J"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{9B}"))
    }
}
