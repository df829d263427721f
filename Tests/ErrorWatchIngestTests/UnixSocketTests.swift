import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(5)))
struct UnixSocketTests {
    @Test func socketIsCreatedWithMode0600AndRemovedOnShutdown() async throws {
        let path = try temporaryDirectory() + "/feed.sock"
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        // Bound in a private 0700 directory and renamed into place: nothing else is left behind.
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["feed.sock"])
        let producer = try await RawProducer.connect(to: .unix(path: path))
        try await producer.send(goodLine())
        try await probe.until { $0.events.count == 1 }
        #expect(probe.statuses[ProducerID(1)]?.peer.hasPrefix("unix") == true)
        try await producer.close()
        await listener.shutdown()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func staleSocketFromACrashedRunIsReplaced() async throws {
        let path = try temporaryDirectory() + "/stale.sock"
        try makeStaleSocket(at: path)
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        let producer = try await RawProducer.connect(to: .unix(path: path))
        try await producer.send(goodLine())
        try await probe.until { $0.events.count == 1 }
        try await producer.close()
        await listener.shutdown()
    }

    @Test func liveSocketIsRefusedWithAClearMessage() async throws {
        let path = try temporaryDirectory() + "/live.sock"
        let probe = FeedProbe()
        let first = try await startListener(.unix(path: path), probe: probe)
        let second = FeedListener(endpoint: .unix(path: path)) { _, _ in }
        // The message names the process that listens, as the kernel and /proc say: here, this test process.
        let comm = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let refusal = WireTransportError.addressInUse(path: path, listener: "\(comm.prefix(32)), pid \(getpid())")
        await #expect(throws: refusal) { try await second.start() }
        #expect(refusal.description == "another process (\(comm.prefix(32)), pid \(getpid())) is listening on \(path)")
        #expect(WireTransportError.addressInUse(path: path).description == "another process is listening on \(path)")
        let producer = try await RawProducer.connect(to: .unix(path: path))
        try await producer.send(goodLine())
        try await probe.until { $0.events.count == 1 }
        try await producer.close()
        await first.shutdown()
    }

    @Test func pathThatIsNotASocketIsLeftAlone() async throws {
        let path = try temporaryDirectory() + "/notes.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let listener = FeedListener(endpoint: .unix(path: path)) { _, _ in }
        await #expect(throws: WireTransportError.notASocket(path: path)) { try await listener.start() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    /// A socket file nobody listens on, as a crashed listener leaves behind: bound, never listened, closed.
    private func makeStaleSocket(at path: String) throws {
        close(try boundUnixSocket(at: path))
    }
}

struct EndpointTests {
    @Test func parsesUnixAndTCPForms() throws {
        #expect(try Endpoint(parsing: "unix:/tmp/x.sock") == .unix(path: "/tmp/x.sock"))
        #expect(try Endpoint(parsing: "tcp:7777") == .tcp(host: "127.0.0.1", port: 7777))
        #expect(try Endpoint(parsing: "tcp:0.0.0.0:7777") == .tcp(host: "0.0.0.0", port: 7777))
        #expect(try Endpoint(parsing: "tcp:[::1]:7777") == .tcp(host: "::1", port: 7777))
        #expect(Endpoint.tcp(host: "::1", port: 7777).description == "tcp:[::1]:7777")
        for bad in ["udp:1", "tcp:", "tcp:99999", "unix:", "tcp:host:", "7777"] {
            #expect(throws: WireTransportError.invalidEndpoint(bad)) { try Endpoint(parsing: bad) }
        }
    }
}

/// Own what we delete (issue 14): at shutdown only the socket this listener created is removed.
@Suite(.timeLimit(.minutes(5)))
struct SocketOwnershipTests {
    @Test func aFilePutAtThePathAfterStartIsNotRemoved() async throws {
        let path = try temporaryDirectory() + "/owned.sock"
        let listener = try await startListener(.unix(path: path), probe: FeedProbe())
        // Someone replaces the socket with their own file while the dashboard runs.
        #expect(unlink(path) == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
        await listener.shutdown()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
    }

    @Test func anotherListenersSocketAtThePathIsNotRemoved() async throws {
        let path = try temporaryDirectory() + "/shared.sock"
        let first = try await startListener(.unix(path: path), probe: FeedProbe())
        // The first socket is gone (say, removed by hand) and a second listener takes the path.
        #expect(unlink(path) == 0)
        let second = try await startListener(.unix(path: path), probe: FeedProbe())
        await first.shutdown()
        #expect(FileManager.default.fileExists(atPath: path), "the first listener left the second's socket alone")
        await second.shutdown()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aSocketPathLongerThanTheSystemAllowsIsRefusedWithAMessage() {
        let path = "/tmp/" + String(repeating: "x", count: 200) + ".sock"
        #expect(throws: WireTransportError.socketPathTooLong(path: path, limit: Endpoint.maximumSocketPathLength)) {
            try Endpoint(parsing: "unix:" + path)
        }
        #expect(Endpoint.maximumSocketPathLength == 107)
        let message = WireTransportError.socketPathTooLong(path: path, limit: 107).description
        #expect(message.contains("210 bytes") && message.contains("at most 107"))
    }
}

/// A host name nobody can resolve is reported with what the resolver said, not as NIO's error value.
@Suite(.timeLimit(.minutes(5)))
struct ListenProblemTests {
    @Test func anUnknownHostIsReportedWithTheResolversWords() async throws {
        let host = "no-such-host.invalid"  // RFC 6761: never resolves
        let resolver = try #require(ListenProblem.resolverMessage(for: host))
        let listener = FeedListener(endpoint: .tcp(host: host, port: 0)) { _, _ in }
        let expected = WireTransportError.cannotListen(
            endpoint: "tcp:\(host):0", reason: "the name \(host) could not be resolved: \(resolver)")
        await #expect(throws: expected) { try await listener.start() }
        let receiver = OTLPReceiver(endpoint: OTLPEndpoint(host: host, port: 0), onEvents: { _, _ in })
        await #expect(throws: WireTransportError.self) { try await receiver.start() }
        #expect(ListenProblem.resolverMessage(for: "127.0.0.1") == nil)
    }
}
