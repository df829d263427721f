import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

// Shared by the tests of ErrorWatchWire (the forwarder sends to a real listener) and ErrorWatchIngest.

import ErrorWatchIngest
import ErrorWatchWire

/// Collects a listener's events and status changes and lets a test await a condition on them.
///
/// Every callback re-checks the waiting conditions; nothing polls and nothing sleeps. A wait ends when the test
/// is cancelled, so a suite's time limit fails a test that would otherwise hang.
public final class FeedProbe: Sendable {
    public init() {}
    private struct Waiter {
        var condition: @Sendable (FeedProbe) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var events: [(ProducerID, WireEvent)] = []
        var counts: [ProducerID: Int] = [:]
        var statuses: [ProducerID: ProducerStatus] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    public var events: [(ProducerID, WireEvent)] { state.withLock { $0.events } }
    public var statuses: [ProducerID: ProducerStatus] { state.withLock { $0.statuses } }

    public func events(from producer: ProducerID) -> [WireEvent] { events.filter { $0.0 == producer }.map(\.1) }

    /// How many events a producer sent, without copying them (cheap enough for conditions checked per event).
    public func count(from producer: ProducerID) -> Int { state.withLock { $0.counts[producer, default: 0] } }

    public func record(_ producer: ProducerID, _ event: WireEvent) {
        state.withLock { state in
            state.events.append((producer, event))
            state.counts[producer, default: 0] += 1
        }
        recheck()
    }

    public func record(_ status: ProducerStatus) {
        state.withLock { $0.statuses[status.id] = status }
        recheck()
    }

    /// The final status of a producer that has disconnected, once it has.
    public func disconnected(_ id: ProducerID) async throws -> ProducerStatus {
        try await until { $0.statuses[id].map { !$0.isConnected } ?? false }
        return try #require(statuses[id])
    }

    /// The id of the `n`th producer to connect (from 1), once it has.
    public func producer(_ n: UInt64) async throws -> ProducerID {
        try await until { $0.statuses[ProducerID(n)] != nil }
        return ProducerID(n)
    }

    /// Returns once `condition` holds, re-checked on every event and status the listener reports.
    ///
    /// It has no deadline of its own: every suite that waits on a probe has a time limit, which cancels the test,
    /// and cancellation ends the wait, so a broken listener fails the test with a message instead of hanging the
    /// whole run.
    public func until(_ condition: @escaping @Sendable (FeedProbe) -> Bool) async throws {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.waiters[id] = Waiter(condition: condition, continuation: continuation) }
                // Cancelled before the waiter was registered: the handler found nothing to resume.
                if Task.isCancelled { resume(id) } else { recheck() }
            }
        } onCancel: {
            resume(id)
        }
        #expect(condition(self), "the test was cancelled (its time limit?) before the condition held")
    }

    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }

    private func recheck() {
        let waiters = state.withLock { $0.waiters }
        for (id, waiter) in waiters where waiter.condition(self) { resume(id) }
    }
}

/// A raw producer: a socket that writes whatever bytes a test gives it.
public struct RawProducer: Sendable {
    public let channel: any Channel

    public static func connect(to endpoint: Endpoint) async throws -> RawProducer {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        switch endpoint {
        case .unix(let path): return RawProducer(channel: try await bootstrap.connect(unixDomainSocketPath: path).get())
        case .tcp(let host, let port):
            return RawProducer(channel: try await bootstrap.connect(host: host, port: port).get())
        }
    }

    public func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    public func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    public func close() async throws { try await channel.close() }
}

/// The one directory this test process makes its temporary directories in, removed when the process exits.
///
/// A test's sockets and files outlive the test (a listener may still be closing), so they are not removed one by
/// one; the whole tree goes at exit, and a run leaves nothing in the system temp dir.
private let temporaryRoot: String = {
    let root = NSTemporaryDirectory() + "ew-wire-\(UUID().uuidString.prefix(8))"
    atexit { try? FileManager.default.removeItem(atPath: temporaryRoot) }
    return root
}()

/// A fresh directory under this process's temporary root, for socket and NDJSON files.
public func temporaryDirectory() throws -> String {
    let path = temporaryRoot + "/\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A good error line from a named service.
public func goodLine(service: String = "shop", sequence: UInt64 = 1) -> [UInt8] {
    let event = WireEvent(
        kind: .error, time: Date(timeIntervalSince1970: 1_800_000_000), serviceName: service, pid: 100,
        exceptionType: "Shop.Failure", code: "N-503", sequence: sequence)
    return try! WireEncoder().encode(event)
}

/// A started listener feeding a probe.
public func startListener(
    _ endpoint: Endpoint, configuration: FeedListener.Configuration = .init(), probe: FeedProbe
) async throws -> FeedListener {
    let listener = FeedListener(
        endpoint: endpoint, configuration: configuration, onStatus: { probe.record($0) },
        onEvent: { probe.record($0, $1) })
    try await listener.start()
    return listener
}

/// Creates (or replaces) a file with the given contents.
public func create(atPath path: String, contents: Data) throws {
    try contents.write(to: URL(fileURLWithPath: path))
}

/// A stream socket bound to `path` (not yet listening); the caller closes it.
public func boundUnixSocket(at path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
    }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    if result != 0 { close(fd) }
    try #require(result == 0)
    return fd
}
