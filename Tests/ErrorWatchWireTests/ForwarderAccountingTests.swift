import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Every event a forwarder's stream delivers is sent or counted as dropped, whatever the listener does and
/// however soon the forwarder is shut down.
@Suite(.timeLimit(.minutes(5)))
struct ForwarderAccountingTests {
    let source = SourceInfo(serviceName: "shop", pid: 321, host: "test-host")

    @Test func eventsAddedJustBeforeShutdownAreSentNotCutOff() async throws {
        let path = try temporaryDirectory() + "/burst.sock"
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        let stream = ErrorStream()
        let forwarder = ErrorForwarder(
            endpoint: .unix(path: path), source: source, stream: stream,
            configuration: .init(queueCapacity: 10_000))
        forwarder.start()
        _ = try await probe.producer(1)
        for attempt in 1...5_000 { stream.add(CheckoutDeclined(), context: ErrorContext(attempt: attempt)) }
        // At once: the stream must be caught up first. The grace period is long because the listener shares a
        // machine with the whole test run and must take 5,000 lines; the default two seconds proved too short
        // under load (CI dropped the last writes).
        await forwarder.shutdown(gracePeriod: .seconds(120))
        let statistics = forwarder.statistics
        #expect(statistics.sent == 5_000)
        #expect(statistics.dropped == 0)
        try await probe.until { $0.events.count == 5_000 }
        await listener.shutdown()
    }

    /// A listener that accepts and never reads: once the socket and NIO's buffers are full, what the stream
    /// delivers is dropped and counted while it happens (not held unseen in the subscription), and at shutdown
    /// sent + dropped equals the events added.
    @Test func aListenerThatNeverReadsMakesCountedDropsWhileItHappens() async throws {
        let path = try temporaryDirectory() + "/stalled.sock"
        let server = try StalledListener(path: path)
        defer { server.close() }
        let stream = ErrorStream()
        let forwarder = ErrorForwarder(
            endpoint: .unix(path: path), source: source, stream: stream,
            configuration: .init(queueCapacity: 64))
        forwarder.start()
        let detail = String(repeating: "x", count: 2_000)
        var added = 0
        // Adds until drops are counted; the time limit fails the test if they never are.
        while forwarder.statistics.dropped == 0 {
            for _ in 0..<100 {
                stream.add(CheckoutDeclined(), context: ErrorContext(metadata: ["detail": detail]))
                added += 1
            }
            await Task.yield()
        }
        // The listener never reads: what is still queued is dropped once the grace period is over.
        await forwarder.shutdown(gracePeriod: .milliseconds(200))
        let statistics = forwarder.statistics
        #expect(statistics.sent + statistics.dropped == UInt64(added))
        #expect(statistics.dropped > 0 && statistics.queued == 0)
    }
}

/// A Unix socket that accepts connections into its backlog and never reads from them.
private final class StalledListener: Sendable {
    let fd: Int32

    init(path: String) throws {
        fd = try boundUnixSocket(at: path)
        try #require(listen(fd, 4) == 0)
    }

    func close() { _ = Glibc.close(fd) }
}
