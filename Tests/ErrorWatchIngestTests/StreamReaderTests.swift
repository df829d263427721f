import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a ``StreamReader`` on a thread of its own (its reads block) and lets a test await what it delivers.
final class StreamReaderHarness: Sendable {
    /// What the reader delivered so far.
    struct Snapshot: Sendable {
        var batches: [StreamReader.Batch] = []
        var ending: StreamReader.Ending?
        var events: [WireEvent] { batches.flatMap(\.events) }
    }

    private struct State {
        var snapshot = Snapshot()
        var waiters: [(condition: @Sendable (Snapshot) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    let reader: StreamReader
    private let state = Mutex(State())

    init(_ reader: StreamReader) {
        self.reader = reader
        Thread { [self] in
            let ending = reader.run { batch in self.change { $0.batches.append(batch) } }
            self.change { $0.ending = ending }
        }.start()
    }

    var snapshot: Snapshot { state.withLock { $0.snapshot } }

    /// Waits until `condition` holds of what was delivered.
    func until(_ condition: @escaping @Sendable (Snapshot) -> Bool) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if condition(state.snapshot) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func change(_ body: (inout Snapshot) -> Void) {
        let ready = state.withLock { state in
            body(&state.snapshot)
            let snapshot = state.snapshot
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(snapshot) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

@Suite(.timeLimit(.minutes(5)))
struct StreamReaderTests {
    /// A pipe: the read end for the reader, the write end for the test.
    func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    func write(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    @Test func readsUntilTheWriterClosesAndSaysItEnded() async {
        let (readEnd, writeEnd) = makePipe()
        let harness = StreamReaderHarness(StreamReader(descriptor: readEnd, closeWhenDone: true))
        write(writeEnd, #"{"level":50,"time":1795000000000,"msg":"boom"}"# + "\nINFO last line without newline")
        close(writeEnd)
        await harness.until { $0.ending != nil }
        #expect(harness.snapshot.ending == .endOfInput)
        #expect(harness.snapshot.events.map(\.kind) == [.error, .log])
        #expect(harness.snapshot.events.last?.body == "last line without newline")
        #expect(harness.snapshot.batches.last?.ended == true)
    }

    @Test func stopReturnsWhileTheWriterKeepsThePipeOpen() async {
        let (readEnd, writeEnd) = makePipe()
        let harness = StreamReaderHarness(StreamReader(descriptor: readEnd, closeWhenDone: true))
        write(writeEnd, "ERROR first\n")
        // The held line is handed on once the pipe is quiet for one poll interval.
        await harness.until { $0.events.count == 1 }
        #expect(harness.snapshot.events.first?.exceptionMessage == "first")
        harness.reader.stop()
        await harness.until { $0.ending != nil }
        #expect(harness.snapshot.ending == .stopped)
        close(writeEnd)
    }

    @Test func aNamedPipeWaitsForItsFirstWriter() async throws {
        let path = try temporaryDirectory() + "/events.fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let harness = StreamReaderHarness(try StreamReader.openFIFO(path: path))
        // No writer yet: the reader must not take that for the end.
        let writer = open(path, O_WRONLY)
        #expect(writer >= 0)
        write(writer, "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n")
        close(writer)
        await harness.until { $0.ending != nil }
        #expect(harness.snapshot.ending == .endOfInput)
        #expect(harness.snapshot.events.map(\.exceptionType) == ["panic"])
    }

    @Test func problemsReadAsOneSentence() {
        let problem = FileProblem(path: "/var/log/app.log", errno: EACCES, doing: "open")
        #expect(problem.description == "cannot open /var/log/app.log: permission denied")
    }
}

/// File, socket and recording problems read as one sentence with the path and the system's reason.
struct ProblemMessageTests {
    @Test func aRecordingIntoADirectoryIsRefusedInOneSentence() throws {
        let directory = try temporaryDirectory()
        #expect(throws: FileProblem.self) { try RecordingWriter(path: directory) }
        do {
            _ = try RecordingWriter(path: directory)
        } catch {
            #expect("\(error)" == "cannot write the recording to \(directory): is a directory")
        }
        do {
            _ = try RecordingReader(path: directory + "/missing.ndjson").readAll()
        } catch {
            #expect("\(error)" == "cannot read the recording \(directory)/missing.ndjson: no such file or directory")
        }
    }

    @Test func aSocketThatCannotBeBoundSaysWhy() async throws {
        let path = try temporaryDirectory() + "/no/such/dir/ew.sock"
        let listener = FeedListener(endpoint: .unix(path: path), onStatus: { _ in }, onEvent: { _, _ in })
        do {
            try await listener.start()
            Issue.record("bound a socket in a missing directory")
        } catch {
            #expect("\(error)" == "cannot listen on unix:\(path): no such file or directory")
        }
        await listener.shutdown()
    }
}

struct OTLPBindProblemTests {
    @Test func aPortInUseIsRefusedInOneSentence() async throws {
        let first = OTLPReceiver(endpoint: OTLPEndpoint(port: 0), onEvents: { _, _ in })
        try await first.start()
        let taken = try #require(first.localEndpoint)
        let second = OTLPReceiver(endpoint: taken, onEvents: { _, _ in })
        do {
            try await second.start()
            Issue.record("bound a port already in use")
        } catch {
            #expect("\(error)" == "cannot listen on \(taken): address already in use")
        }
        await second.shutdown()
        await first.shutdown()
    }
}

/// Inputs issue 14 found held; these keep them held.
struct HeldInputTests {
    @Test func aSymlinkAtTheSocketPathIsRefusedAndLeftAlone() async throws {
        let directory = try temporaryDirectory()
        let target = directory + "/target.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let path = directory + "/ew.sock"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let listener = FeedListener(endpoint: .unix(path: path)) { _, _ in }
        await #expect(throws: WireTransportError.notASocket(path: path)) { try await listener.start() }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }

    /// 32 MiB without a newline: reported once as too long, then skipped; the framer never holds more than a line.
    @Test func aLineWithoutEndIsSkippedInBoundedMemory() {
        var framer = LineFramer()
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var tooLong = 0
        var lines = 0
        for _ in 0..<512 {
            chunk.withUnsafeBytes { bytes in
                framer.feed(bytes) { frame in
                    if case .tooLong = frame { tooLong += 1 } else { lines += 1 }
                }
            }
            #expect(framer.pendingByteCount < LineFramer.defaultMaximumLineBytes)
        }
        #expect(tooLong == 1 && lines == 0)
        let next = Array("{\"v\":1}\n".utf8)
        let after = framer.feed(Array("\n".utf8) + next)
        #expect(after.count == 1, "the line after the newline is read again")
    }
}
