import Foundation
import NIOCore
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// The listener's budgets, with small limits: connections, unfinished lines, lines that stall.
@Suite(.timeLimit(.minutes(5)))
struct ListenerBudgetTests {
    /// At the limit nobody is accepted and closed unread: newcomers wait in the backlog (the listener stops
    /// accepting) and their lines are read once a slot frees.
    @Test func atTheLimitNewcomersWaitAndNothingTheyWroteIsLost() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration()
        configuration.maximumConnections = 2
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let first = try await RawProducer.connect(to: endpoint)
        _ = try await probe.producer(1)
        let second = try await RawProducer.connect(to: endpoint)
        _ = try await probe.producer(2)
        // Connects through the kernel's backlog and writes its line before the listener takes it.
        let third = try await RawProducer.connect(to: endpoint)
        try await third.send(goodLine(sequence: 3))
        try await first.send(goodLine(sequence: 1))
        try await probe.until { $0.count(from: ProducerID(1)) == 1 }
        #expect(listener.statistics.acceptPauses == 1)
        try await second.close()
        _ = try await probe.disconnected(ProducerID(2))
        // A slot is free: the waiting producer is accepted and its line read.
        try await probe.until { $0.events.contains { $0.1.sequence == 3 } }
        #expect(probe.statuses.values.allSatisfy { $0.errors.truncated == 0 })
        #expect(listener.statistics.evictedConnections == 0)
        try await first.close()
        try await third.close()
        await listener.shutdown()
    }

    /// When every slot is taken, the connection that has held an unfinished line the longest makes room for a
    /// newcomer, so trickling connections cannot lock a good producer out.
    @Test func atTheLimitTheLongestUnfinishedLineIsEvictedForANewcomer() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration()
        configuration.maximumConnections = 2
        configuration.evictionGrace = .milliseconds(100)
        configuration.stalledLineTimeout = .seconds(240)
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let trickler = try await RawProducer.connect(to: endpoint)
        let tricklerID = try await probe.producer(1)
        try await trickler.send(#"{"v":1,"kind":"err"#)
        let quiet = try await RawProducer.connect(to: endpoint)
        let quietID = try await probe.producer(2)
        let good = try await RawProducer.connect(to: endpoint)
        try await good.send(goodLine(sequence: 7))
        let evicted = try await probe.disconnected(tricklerID)
        // How long it had held its line depends on the machine's load: at least the grace, so 0 s or more.
        guard case .disconnected(.evictedForNewConnection) = evicted.state else {
            Issue.record("expected an eviction, got \(evicted.state)")
            return
        }
        try await probe.until { $0.events.contains { $0.1.sequence == 7 } }
        #expect(listener.statistics.evictedConnections == 1)
        // The connection between lines keeps its slot.
        #expect(probe.statuses[quietID]?.isConnected == true)
        try await quiet.close()
        try await good.close()
        await listener.shutdown()
    }

    /// The line deadline runs from a line's first byte: bytes that keep trickling in do not keep it open.
    @Test func aLineThatTricklesIsClosedAtItsDeadlineWhateverArrives() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration(maximumLineBytes: 16 * 1024 * 1024, maximumBytesPerSecond: nil)
        configuration.stalledLineTimeout = .milliseconds(300)
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let trickler = try await RawProducer.connect(to: endpoint)
        let id = try await probe.producer(1)
        try await trickler.send(#"{"v":1,"kind":"error","#)
        // One byte per write, never a newline, until the listener closes the connection.
        let trickling = Task {
            var sent = 0
            while (try? await trickler.send("x")) != nil, sent < 8 * 1024 * 1024 { sent += 1 }
            return sent
        }
        let status = try await probe.disconnected(id)
        #expect(status.state == .disconnected(.stalledMidLine(seconds: 0)))
        #expect(status.bytesReceived > 20)
        #expect(listener.statistics.closedStalledMidLine == 1)
        _ = await trickling.value
        await listener.shutdown()
    }

    @Test func overThePartialLineBudgetTheLargestHolderIsClosed() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration()
        configuration.partialLineBudget = 1_000
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let small = try await RawProducer.connect(to: endpoint)
        let smallID = try await probe.producer(1)
        let large = try await RawProducer.connect(to: endpoint)
        let largeID = try await probe.producer(2)
        // Whichever is read first, the sum goes over 1,000 bytes with the 800-byte line the largest.
        try await small.send(String(repeating: "s", count: 300))
        try await large.send(String(repeating: "l", count: 800))
        let status = try await probe.disconnected(largeID)
        #expect(status.state == .disconnected(.partialLineBudgetExceeded(bytes: 800)))
        #expect(status.errors.truncated == 1)
        #expect(listener.statistics.closedForPartialLines == 1)
        // The smaller holder keeps its connection and finishes its line.
        try await small.send("\n" + String(decoding: goodLine(sequence: 5), as: UTF8.self))
        try await probe.until { $0.events(from: smallID).contains { $0.sequence == 5 } }
        #expect(probe.statuses[smallID]?.isConnected == true)
        try await small.close()
        await listener.shutdown()
    }

    @Test func aConnectionThatStopsMidLineIsClosedAfterTheTimeout() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration()
        configuration.stalledLineTimeout = .milliseconds(200)
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let complete = try await RawProducer.connect(to: endpoint)
        let completeID = try await probe.producer(1)
        try await complete.send(goodLine(sequence: 1))
        let slow = try await RawProducer.connect(to: endpoint)
        let slowID = try await probe.producer(2)
        try await slow.send(#"{"v":1,"kind":"err"#)
        let status = try await probe.disconnected(slowID)
        #expect(status.state == .disconnected(.stalledMidLine(seconds: 0)))
        #expect(status.errors.truncated == 1)
        #expect(listener.statistics.closedStalledMidLine == 1)
        // A connection between lines is not stalled, however quiet it is.
        #expect(probe.statuses[completeID]?.isConnected == true)
        try await complete.close()
        await listener.shutdown()
    }
}
