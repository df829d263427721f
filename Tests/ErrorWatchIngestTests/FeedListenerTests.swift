import Foundation
import NIOCore
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

@Suite(.timeLimit(.minutes(5)))
struct FeedListenerTests {
    /// Sends `bad` from one producer while a second, well-behaved producer sends 50 good lines; returns the bad
    /// producer's final status after it closes, having checked that every good line arrived.
    /// A producer that sends `bad` then good lines. The listener reads the wire format only (`--format wire`), so
    /// anything else is a bad line; in the default `auto` mode the same bytes would be read as log lines.
    func badProducer(
        sending bad: [UInt8], configuration: FeedListener.Configuration = .init(format: .wire), closes: Bool = true
    ) async throws -> ProducerStatus {
        let probe = FeedProbe()
        let listener = try await startListener(
            .tcp(host: "127.0.0.1", port: 0), configuration: configuration, probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let good = try await RawProducer.connect(to: endpoint)
        try await good.send(goodLine(service: "good", sequence: 1))
        let goodID = try await probe.producer(1)
        let offender = try await RawProducer.connect(to: endpoint)
        let offenderID = try await probe.producer(2)
        try? await offender.send(bad)
        for n in 2...50 { try await good.send(goodLine(service: "good", sequence: UInt64(n))) }
        if closes { try? await offender.close() }
        let status = try await probe.disconnected(offenderID)
        try await probe.until { $0.count(from: goodID) == 50 }
        #expect(probe.events(from: goodID).map(\.sequence) == (1...50).map { Optional(UInt64($0)) })
        #expect(listener.producers.first { $0.id == goodID }?.isConnected == true)
        try await good.close()
        _ = try await probe.disconnected(goodID)
        #expect(probe.statuses[goodID]?.errors.total == 0)
        await listener.shutdown()
        return status
    }

    @Test func malformedJSONIsCountedAndTheConnectionKept() async throws {
        let status = try await badProducer(sending: Array("{\"v\":1,\n[1]\n".utf8) + goodLine())
        #expect(status.errors.malformed == 2)
        #expect(status.eventsReceived == 1)
        #expect(status.state == .disconnected(.closedByPeer))
        #expect(status.serviceName == "shop" && status.pid == 100)
    }

    @Test func lineOverTheLimitIsCountedAndSkipped() async throws {
        let status = try await badProducer(sending: [UInt8](repeating: 0x61, count: 70_000) + [0x0A] + goodLine())
        #expect(status.errors.tooLong == 1)
        #expect(status.eventsReceived == 1)
    }

    @Test func invalidUTF8IsCounted() async throws {
        let status = try await badProducer(
            sending: Array("{\"v\":1,\"x\":\"".utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8))
        #expect(status.errors.invalidUTF8 == 1)
    }

    @Test func unknownVersionIsCounted() async throws {
        let status = try await badProducer(sending: Array(#"{"v":7,"kind":"hologram"}"#.utf8) + [0x0A])
        #expect(status.errors.unknownVersion == 1)
        #expect(status.lastError == .unsupportedVersion(7))
    }

    @Test func binaryGarbageIsCountedAsBadLines() async throws {
        var generator = SystemRandomNumberGenerator()
        var garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        garbage.append(0x0A)
        let status = try await badProducer(sending: garbage)
        let newlines = garbage.filter { $0 == 0x0A }.count
        #expect(status.errors.badLines >= 1 && status.errors.badLines <= newlines)
        #expect(status.eventsReceived == 0)
    }

    @Test func producerThatSendsNothingIsCounted() async throws {
        let status = try await badProducer(sending: [])
        #expect(status.errors.idleNoData == 1)
        #expect(status.bytesReceived == 0)
    }

    @Test func silentProducerIsClosedAfterTheIdleTimeout() async throws {
        // Alone: a well-behaved producer beside it could itself look idle on a loaded machine.
        let probe = FeedProbe()
        let listener = try await startListener(
            .tcp(host: "127.0.0.1", port: 0), configuration: .init(idleTimeout: .milliseconds(50)), probe: probe)
        let silent = try await RawProducer.connect(to: try #require(listener.localEndpoint))
        let status = try await probe.disconnected(try await probe.producer(1))
        #expect(status.state == .disconnected(.idle))
        #expect(status.errors.idleNoData == 1)
        try? await silent.close()
        await listener.shutdown()
    }

    @Test func disconnectMidLineIsCountedAsTruncated() async throws {
        let status = try await badProducer(sending: goodLine() + Array(#"{"v":1,"kind":"err"#.utf8))
        #expect(status.errors.truncated == 1)
        #expect(status.eventsReceived == 1)
    }

    @Test func floodingProducerIsClosedForItsRateAndOthersAreNotAffected() async throws {
        let flood = (1...4000).flatMap { goodLine(sequence: UInt64($0)) }
        let status = try await badProducer(
            sending: flood, configuration: .init(maximumBytesPerSecond: 64 * 1024), closes: false)
        #expect(status.state == .disconnected(.rateLimitExceeded(bytesPerSecond: 64 * 1024)))
        #expect(status.eventsReceived < 4000)
    }

    @Test func floodWithinTheLimitsDoesNotHoldBackAnotherProducer() async throws {
        let probe = FeedProbe()
        let listener = try await startListener(
            .tcp(host: "127.0.0.1", port: 0), configuration: .init(maximumBytesPerSecond: nil), probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let flooder = try await RawProducer.connect(to: endpoint)
        let floodID = try await probe.producer(1)
        let chunk = (1...2000).flatMap { goodLine(service: "flood", sequence: UInt64($0)) }
        // The flood never lets up until the other producer has been heard in full, so the assertion below cannot
        // depend on how fast the flood happens to finish: a starved producer would simply never get through.
        let keepFlooding = Mutex(true)
        let flooding = Task {
            var sent = 0
            while keepFlooding.withLock({ $0 }) {
                try await flooder.send(chunk)
                sent += 2000
            }
            return sent
        }
        try await probe.until { $0.count(from: floodID) > 2000 }  // the flood is under way
        let good = try await RawProducer.connect(to: endpoint)
        let goodID = try await probe.producer(2)
        for n in 1...50 { try await good.send(goodLine(service: "good", sequence: UInt64(n))) }
        // NIO reads a few buffers per connection per loop turn, so the good producer gets its turns mid-flood.
        try await probe.until { $0.count(from: goodID) == 50 }
        keepFlooding.withLock { $0 = false }
        let sent = try await flooding.value
        try await probe.until { $0.count(from: floodID) == sent }
        #expect(probe.count(from: goodID) == 50)
        try await flooder.close()
        try await good.close()
        await listener.shutdown()
    }

    @Test func inAutoModeOtherShapesAndPlainTextAreEventsNotBadLines() async throws {
        let probe = FeedProbe()
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), probe: probe)
        let endpoint = try #require(listener.localEndpoint)
        let producer = try await RawProducer.connect(to: endpoint)
        let id = try await probe.producer(1)
        let lines = [
            #"{"level":50,"time":1795000000000,"msg":"payment failed","err":{"type":"CardError","message":"declined"}}"#,
            "2026-11-23 10:00:00 ERROR worker: order 7 failed",
            "Traceback (most recent call last):",
            "  File \"w.py\", line 1, in <module>",
            "KeyError: 'sku'",
            "2026-11-23 10:00:01 INFO worker: next",
        ]
        try await producer.send(Array(lines.joined(separator: "\n").utf8) + [0x0A] + goodLine())
        // The last text line is held until the next line shows no trace follows it (here, the wire line).
        try await probe.until { $0.count(from: id) == 4 }
        let events = probe.events(from: id)
        #expect(events.map(\.kind) == [.error, .error, .log, .error])
        #expect(events[0].exceptionType == "CardError")
        #expect(events[1].exceptionType == "KeyError")
        #expect(events[2].body == "next")
        #expect(events[2].source == "worker")
        #expect(events[3].serviceName == "shop")
        // A text line last on a quiet connection is handed on after a moment, without a next line.
        try await producer.send(Array("WARN last words\n".utf8))
        try await probe.until { $0.count(from: id) == 5 }
        #expect(probe.events(from: id).last?.body == "last words")
        try await producer.close()
        let status = try await probe.disconnected(id)
        #expect(status.errors.total == 0)
        #expect(status.eventsReceived == 5)
        await listener.shutdown()
    }

    @Test func producerOverItsErrorBudgetIsClosed() async throws {
        let junk = Array(String(repeating: "not json\n", count: 20).utf8)
        let status = try await badProducer(sending: junk, configuration: .init(errorBudget: 5, format: .wire), closes: false)
        #expect(status.state == .disconnected(.errorBudgetExceeded(badLines: 6)))
    }

    @Test func shutdownClosesProducersWithAReason() async throws {
        let probe = FeedProbe()
        let listener = try await startListener(.tcp(host: "127.0.0.1", port: 0), probe: probe)
        let producer = try await RawProducer.connect(to: try #require(listener.localEndpoint))
        try await producer.send(goodLine())
        let id = try await probe.producer(1)
        try await probe.until { $0.events.count == 1 }
        await listener.shutdown()
        #expect(try await probe.disconnected(id).state == .disconnected(.listenerShutdown))
        try? await producer.close()
    }
}
