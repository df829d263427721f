import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchIngest

#if canImport(Glibc)
    import Glibc
#endif

/// The child of `errorwatch run`: a pseudo-terminal for stdout, a pipe for stderr, its own process group, its exit.
struct ChildProcessTests {
    static let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    static func start(_ script: String, environment: [String: String] = [:], in folder: String? = nil) throws
        -> ChildProcess
    {
        var environment = environment
        environment["PATH"] = path
        return try ChildProcess.start(
            ChildProcess.Command(arguments: ["sh", "-c", script], environment: environment, workingDirectory: folder))
    }

    /// Every line of `descriptor` until its writers are gone, as the log reader reads it.
    static func lines(of descriptor: Int32) -> [String] {
        let reader = StreamReader(descriptor: descriptor, closeWhenDone: true, pollInterval: .milliseconds(20))
        var lines: [String] = []
        let ending = reader.run { batch in
            lines += batch.events.map { $0.body ?? $0.exceptionMessage ?? "" }
        }
        #expect(ending == .endOfInput)
        return lines
    }

    @Test func outputIsATerminalAndErrorsAPipeEachReadByLine() throws {
        let child = try Self.start(
            "test -t 1 && echo stdout-is-a-tty; test -t 2 || echo stderr-is-a-pipe >&2; printf 'one\\ntwo\\n'; exit 3")
        let errors = Self.lines(of: child.errors)
        let output = Self.lines(of: child.output)
        #expect(output == ["stdout-is-a-tty", "one", "two"])
        #expect(errors == ["stderr-is-a-pipe"])
        #expect(child.waitForExit() == .exited(code: 3))
    }

    @Test func aLinePrintedBeforeACrashIsNotLost() throws {
        // stdio buffers fully into a pipe, so `printf` then a crash would lose the line there; a terminal
        // line-buffers. (`kill -SEGV $$` is the crash.)
        let child = try Self.start("printf 'last words\\n'; kill -SEGV $$")
        #expect(Self.lines(of: child.output) == ["last words"])
        _ = Self.lines(of: child.errors)
        let ending = child.waitForExit()
        #expect(ending == .signalled(signal: SIGSEGV, coreDumped: false) || ending == .signalled(signal: SIGSEGV, coreDumped: true))
        #expect(ending.description.hasPrefix("killed by SIGSEGV (signal 11)"))
        #expect(ending.code == "SIGSEGV")
    }

    @Test func environmentAndFolderAreTheCommandsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let child = try Self.start("echo \"$GREETING\"; pwd", environment: ["GREETING": "hello there"], in: folder)
        _ = Self.lines(of: child.errors)
        let output = Self.lines(of: child.output)
        #expect(output.first == "hello there")
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        #expect(output.last.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == resolved)
        #expect(child.waitForExit().isSuccess)
    }

    @Test func aMissingCommandIsAClearError() {
        #expect {
            _ = try ChildProcess.start(
                ChildProcess.Command(arguments: ["no-such-command-errorwatch"], environment: ["PATH": Self.path]))
        } throws: { error in
            (error as? ChildProcess.StartError)?.description
                == "cannot start no-such-command-errorwatch: no such file or directory"
        }
    }

    @Test func aMissingFolderIsAClearError() {
        #expect(throws: ChildProcess.StartError.self) {
            _ = try Self.start("true", in: "/no/such/folder/errorwatch")
        }
    }

    /// A child that ignores SIGTERM (as what it starts then does) and leaves a process of its own behind: SIGKILL
    /// to the group ends both. The background `sleep` holds the terminal too, so the output ends (EIO) only when it
    /// is gone as well: that end is the proof, no polling.
    @Test(.timeLimit(.minutes(1))) func theWholeGroupIsEndedEvenWhenTheChildIgnoresSIGTERM() throws {
        let child = try Self.start("trap '' TERM; sleep 1000 & echo started; while :; do sleep 1; done")
        defer { close(child.errors) }
        let reader = StreamReader(descriptor: child.output, closeWhenDone: true, pollInterval: .milliseconds(20))
        var lines: [String] = []
        let ending = reader.run { batch in
            lines += batch.events.compactMap(\.body)
            if lines == ["started"] {
                child.signal(SIGTERM)
                child.signal(SIGKILL)
            }
        }
        #expect(ending == .endOfInput)
        #expect(lines == ["started"])
        #expect(child.waitForExit() == .signalled(signal: SIGKILL, coreDumped: false))
    }
}
