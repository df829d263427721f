import ArgumentParser
import Testing

@testable import errorwatch

/// `errorwatch run [OPTIONS] [--] COMMAND [ARGS…]`: its options before the command, the command's own after it.
struct RunCommandTests {
    @Test func optionsBeforeTheCommandAreErrorwatchs() throws {
        let command = try RunCommand.parse(["--restart", "on-failure", "--env", "A=1", "python3", "-u", "app.py", "--port", "9"])
        #expect(command.restartPolicy == .onFailure)
        #expect(command.commandArguments == ["python3", "-u", "app.py", "--port", "9"])
        #expect(try command.overrides.map(\.key) == ["A"])
    }

    @Test func aDoubleDashEndsErrorwatchsOptions() throws {
        let command = try RunCommand.parse(["--otlp-protocol", "grpc", "--", "--weird-name", "x"])
        #expect(command.commandArguments == ["--weird-name", "x"])
        #expect(command.exportProtocol == .grpc)
    }

    @Test func mistakesAreUsageErrors() {
        #expect(throws: (any Error).self) { _ = try RunCommand.parse([]) }
        #expect(throws: (any Error).self) { _ = try RunCommand.parse(["--restart", "sometimes", "ls"]) }
        #expect(throws: (any Error).self) { _ = try RunCommand.parse(["--env", "NOEQUALS", "ls"]) }
        #expect(throws: (any Error).self) { _ = try RunCommand.parse(["--otlp-protocol", "smoke", "ls"]) }
    }

    @Test func helpIsHelpEvenThoughTheCommandTakesTheRest() {
        #expect {
            _ = try RunCommand.parse(["--help"])
        } throws: { error in
            RunCommand.exitCode(for: error) == .success && RunCommand.fullMessage(for: error).contains("--restart")
        }
    }
}
