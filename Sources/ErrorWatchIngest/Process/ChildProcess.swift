import CProcessSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A command started as the dashboard's child (`errorwatch run -- COMMAND`), in a session and process group of its
/// own: its standard output is a pseudo-terminal (so it line-buffers, and a line printed before a crash is never
/// lost in a pipe's buffer), its standard error a pipe, its standard input `/dev/null`. The dashboard's keys and
/// Ctrl-C never reach it; ``signal(_:)`` reaches it and everything it started.
///
/// ```swift
/// let child = try ChildProcess.start(.init(arguments: ["python3", "app.py"], environment: environment))
/// Thread { StreamReader(descriptor: child.output, closeWhenDone: true).run { show($0) } }.start()
/// let ending = child.waitForExit()   // blocks: .exited(code: 1)
/// ```
public final class ChildProcess: Sendable {
    /// What to run.
    public struct Command: Sendable, Hashable {
        /// The program (looked up in `PATH` unless it contains a `/`) and its arguments.
        public var arguments: [String]
        /// The child's whole environment.
        public var environment: [String: String]
        /// The folder it starts in; `nil`: the dashboard's.
        public var workingDirectory: String?

        /// A command; see the properties.
        public init(arguments: [String], environment: [String: String], workingDirectory: String? = nil) {
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
        }

        /// The program's name without its folder (`python3`, `ShopServer`).
        public var name: String {
            guard let program = arguments.first else { return "child" }
            return (program as NSString).lastPathComponent
        }
    }

    /// How a child ended.
    public enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status.
        case exited(code: Int32)
        /// A signal ended it.
        case signalled(signal: Int32, coreDumped: Bool)

        /// Exit status 0.
        public var isSuccess: Bool { self == .exited(code: 0) }

        /// `exited with status 1`, `killed by SIGSEGV (signal 11), core dumped`.
        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal, let core):
                "killed by \(ChildProcess.signalName(signal)) (signal \(signal))" + (core ? ", core dumped" : "")
            }
        }

        /// Short, for a status row or an error code: `exit 1`, `SIGSEGV`.
        public var code: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal, _): ChildProcess.signalName(signal)
            }
        }
    }

    /// Why a child could not be started.
    public struct StartError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The command's name.
        public var command: String
        /// What failed, in words.
        public var reason: String

        /// `cannot start python4: no such file or directory`.
        public var description: String { "cannot start \(command): \(reason)" }
    }

    /// The child's process id, also its process group's and session's.
    public let pid: Int32
    /// The reading end of its standard output (a pseudo-terminal); the reader closes it.
    public let output: Int32
    /// The reading end of its standard error (a pipe); the reader closes it.
    public let errors: Int32
    private let reaped = Atomic<Bool>(false)

    private init(pid: Int32, output: Int32, errors: Int32) {
        self.pid = pid
        self.output = output
        self.errors = errors
    }

    /// Starts `command`. Throws ``StartError`` when it cannot be started (no such program, not executable).
    public static func start(_ command: Command, columns: UInt16 = 120, rows: UInt16 = 40) throws(StartError)
        -> ChildProcess
    {
        guard let program = command.arguments.first, !program.isEmpty else {
            throw StartError(command: "child", reason: "no command given")
        }
        func failure(_ code: Int32) -> StartError {
            StartError(command: command.name, reason: String(cString: strerror(code)).lowercased())
        }
        if let folder = command.workingDirectory {
            var info = stat()
            guard stat(folder, &info) == 0 else { throw failure(errno) }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw StartError(command: command.name, reason: "--cwd \(folder) is not a folder")
            }
        }
        var primary: Int32 = -1
        var secondary: Int32 = -1
        let ptyResult = errorwatch_openpty(&primary, &secondary, columns, rows)
        guard ptyResult == 0 else { throw failure(ptyResult) }
        var errorPipe: [Int32] = [-1, -1]
        let pipeResult = errorwatch_pipe(&errorPipe)
        guard pipeResult == 0 else {
            let code = pipeResult
            close(primary)
            close(secondary)
            throw failure(code)
        }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            // The child has its copies; ours of its ends must go, or its output would never end.
            close(secondary)
            close(errorPipe[1])
            if devNull >= 0 { close(devNull) }
        }
        let environment = command.environment.map { "\($0.key)=\($0.value)" }.sorted()
        var pid: pid_t = 0
        let result = withCStrings(command.arguments) { argv in
            withCStrings(environment) { envp in
                errorwatch_spawn(
                    &pid, program, argv, envp, command.workingDirectory, devNull >= 0 ? devNull : secondary,
                    secondary, errorPipe[1], program.contains("/") ? 0 : 1)
            }
        }
        guard result == 0 else {
            close(primary)
            close(errorPipe[0])
            throw failure(result)
        }
        return ChildProcess(pid: pid, output: primary, errors: errorPipe[0])
    }

    /// Sends `signal` to the child's process group (the child and everything it started that stayed in it); to
    /// the child alone if the group is gone. Nothing once the child was reaped (its pid may be another's by then).
    public func signal(_ signal: Int32) {
        guard !reaped.load(ordering: .acquiring) else { return }
        if kill(-pid, signal) != 0 { _ = kill(pid, signal) }
    }

    /// Waits for the child to end and reaps it. Blocks the calling thread; call it once, from one thread.
    public func waitForExit() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { break }
        }
        reaped.store(true, ordering: .releasing)
        // The wait macros, spelled out: Swift does not import them.
        let signal = status & 0x7f
        if signal == 0 { return .exited(code: (status >> 8) & 0xff) }
        return .signalled(signal: signal, coreDumped: status & 0x80 != 0)
    }

    /// Ends the rest of the child's process group after it exited (what it started and left behind).
    public func killGroup() {
        _ = kill(-pid, SIGKILL)
    }

    /// `SIGSEGV`, or `signal 42` for one without a common name.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// Calls `body` with a NULL-terminated C array of `strings`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers + [nil])
}
