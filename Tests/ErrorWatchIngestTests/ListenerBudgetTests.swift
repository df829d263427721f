import Foundation
import NIOCore
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// The listener's budgets, with small limits: connections, unfinished lines, lines that stall.
@Suite(.timeLimit(.minutes(5)))
struct ListenerBudgetTests {
    @Test func connectionsOverTheLimitAreRefusedAtOnceAndCounted() async throws {
        let probe = FeedProbe()
        var configuration = FeedListener.Configuration()
        configuration.maximumConnections = 2
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let first = try await RawProducer.connect(to: endpoint)
        _ = try await probe.producer(1)
        let second = try await RawProducer.connect(to: endpoint)
        _ = try await probe.producer(2)
        let third = try await RawProducer.connect(to: endpoint)
        // Refused: the listener closes it without a word.
        try await third.channel.closeFuture.get()
        #expect(listener.statistics.refusedConnections == 1)
        // The two within the limit still work, and once one leaves there is room again.
        try await first.send(goodLine(sequence: 1))
        try await probe.until { $0.count(from: ProducerID(1)) == 1 }
        try await second.close()
        _ = try await probe.disconnected(ProducerID(2))
        let fourth = try await RawProducer.connect(to: endpoint)
        _ = try await probe.producer(3)
        try await fourth.send(goodLine(sequence: 2))
        try await probe.until { $0.count(from: ProducerID(3)) == 1 }
        try await first.close()
        try await fourth.close()
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
