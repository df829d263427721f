import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP2
import SwiftProtobuf
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// The HTTP receivers' budgets applied to OTLP/gRPC (issue 34, item 1), with small budgets, against the real
/// receiver and, for the stream gate's framing, on an embedded channel: the connection limit, the preface deadline,
/// calls and messages within the body budget (refused `RESOURCE_EXHAUSTED` with a `RetryInfo` and counted), and every
/// budget given back when its stream or connection ends. The limit of streams per connection is
/// `OTLPGRPCHostileTests.aClientOpeningAThousandStreamsLosesItsConnectionAndItsCallsAreCountedWhileOthersGoOn`.
@Suite(.timeLimit(.minutes(5)))
struct OTLPGRPCBudgetTests {
    static func until(_ condition: () -> Bool) async -> Bool { await OTLPGRPCHostileTests.until(condition) }
    static let cost = OTLPGRPCReceiver.streamCostBytes

    /// An Export call's headers and the first `sent` bytes of a message announcing `length` bytes, unfinished.
    static func unfinishedCall(stream: UInt32, port: Int, length: Int, sent: Int = 16) -> [UInt8] {
        let prefix: [UInt8] = [0] + withUnsafeBytes(of: UInt32(length).bigEndian) { Array($0) }
        return RawHTTP2.openCall(stream: stream, path: OTLPGRPCHostileTests.exportLogs, authority: "127.0.0.1:\(port)")
            + RawHTTP2.frame(RawHTTP2.data, flags: 0, stream: stream, prefix + [UInt8](repeating: 0x0A, count: sent))
    }

    /// A logs request of about `size` bytes, one record.
    static func logs(size: Int) throws -> [UInt8] {
        try OTLPFixtures.logs([OTLPFixtures.record(body: String(repeating: "x", count: size))]).serializedBytes()
    }

    @Test func theConnectionLimitAppliesToGRPCConnectionsOldestUnfinishedFirst() async throws {
        let limits = OTLPReceiver.Limits(maximumConnections: 2, requestTimeout: .seconds(60))
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        // Two connections that send nothing (no preface: each holds an unfinished exchange from its opening),
        // admitted one after the other so that their order is known.
        let first = try #require(RawSocket(port: port))
        #expect(await Self.until { receiver.openConnections == 1 })
        let second = try #require(RawSocket(port: port))
        #expect(await Self.until { receiver.openConnections == 2 })
        // A third takes the oldest one's slot.
        let third = try #require(RawSocket(port: port))
        #expect(await offPool { first.waitForClose() }, "the oldest silent connection was evicted")
        #expect(await Self.until { receiver.statistics.evictedConnections == 1 })
        #expect(receiver.openConnections <= 2)
        // A client library's call still goes through, on a connection of its own (evicting the next oldest).
        let answer = try await OTLPGRPCReceiverTests.withExporter(port: port) {
            try await $0.export(.logs, body: OTLPGRPCReceiverTests.logs)
        }
        #expect(answer.isOK)
        #expect(probe.events.count == 2)
        #expect(await offPool { second.waitForClose() }, "the next oldest made room for the exporter")
        #expect(receiver.statistics.evictedConnections == 2)
        third.close()
        await receiver.shutdown()
        #expect(receiver.openConnections == 0, "every slot given back")
    }

    @Test func aConnectionThatSendsNoPrefaceIsClosedAtTheDeadlineAndCounted() async throws {
        let limits = OTLPReceiver.Limits(requestTimeout: .seconds(1))
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        // One client sends its preface first; then a silent one.
        let speaking = try #require(RawSocket(port: port))
        #expect(speaking.send(RawHTTP2.preface))
        let silent = try #require(RawSocket(port: port))
        // The signal: the receiver closes the silent connection (the socket's own timeout bounds the wait).
        #expect(await offPool { silent.waitForClose() }, "the silent connection was closed")
        #expect(await Self.until { receiver.openConnections == 1 })
        #expect(receiver.statistics.timedOutRequests == 1)
        let client = "client 127.0.0.1"
        #expect(probe.problems[client] == ["DEADLINE_EXCEEDED: closed: sent no HTTP/2 preface within 1.0 seconds"])
        // The connection that sent its preface, opened before the silent one, is still served.
        let call = RawHTTP2.openCall(stream: 1, path: OTLPGRPCHostileTests.exportLogs, authority: "127.0.0.1:\(port)")
        #expect(speaking.send(call + RawHTTP2.message(stream: 1, OTLPGRPCReceiverTests.logs)))
        let (frames, _) = await offPool {
            RawHTTP2.read(speaking, timeout: .seconds(60)) { frames in
                frames.contains { $0.type == RawHTTP2.headers && $0.stream == 1 && $0.flags & RawHTTP2.endStream != 0 }
            }
        }
        #expect(frames.contains { $0.type == RawHTTP2.data && $0.stream == 1 }, "the call was answered")
        #expect(probe.events.count == 2)
        speaking.close()
        await receiver.shutdown()
    }

    @Test func largeExportsBeyondTheBudgetAreResourceExhaustedWithRetryAndCountedAndTheBudgetComesBack()
        async throws
    {
        let message = 90_000
        let limits = OTLPReceiver.Limits(
            maximumBodyBytes: 100_000, requestTimeout: .seconds(60), bodyBudgetBytes: 3 * Self.cost + 100_000)
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        // A call holding its stream and a 90,000-byte message (announced, being sent).
        let holder = try #require(RawSocket(port: port))
        #expect(holder.send(RawHTTP2.preface + Self.unfinishedCall(stream: 1, port: port, length: message)))
        #expect(await Self.until { receiver.bodyBytesInFlight == Self.cost + message }, "the call and its message")
        // Meanwhile a client library's large Export does not fit: refused at once, retryable, counted.
        let body = try Self.logs(size: message)
        let refused = try await OTLPGRPCReceiverTests.withExporter(port: port, gzip: false) {
            try await $0.export(.logs, body: body)
        }
        #expect(refused.code == "RESOURCE_EXHAUSTED")
        #expect(refused.retryAfter == .seconds(1), "to be retried: the receiver was full, not the request wrong")
        #expect(refused.message?.contains("does not fit in the receiver's budget") == true, "\(refused)")
        #expect(receiver.statistics.overBodyBudget == 1)
        #expect(probe.sources["client 127.0.0.1"] == nil, "not the client's fault: counted for the receiver")
        // The holder leaves: its call's budget comes back, and the same export now goes through.
        holder.close()
        #expect(await Self.until { receiver.bodyBytesInFlight == 0 }, "given back when the stream ended")
        let accepted = try await OTLPGRPCReceiverTests.withExporter(port: port, gzip: false) {
            try await $0.export(.logs, body: body)
        }
        #expect(accepted.isOK)
        #expect(probe.sources["shop/i-1"]?.requests == 1)
        #expect(await Self.until { receiver.bodyBytesInFlight == 0 }, "given back when the call ended")
        await receiver.shutdown()
    }

    @Test func aCallThatDoesNotFitInTheBudgetIsAnsweredAtOnceAndItsStreamEnded() async throws {
        let limits = OTLPReceiver.Limits(requestTimeout: .seconds(60), bodyBudgetBytes: 2 * Self.cost)
        let (receiver, _, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        let client = try #require(RawSocket(port: port))
        let path = OTLPGRPCHostileTests.exportLogs
        let calls = (0..<3).map { RawHTTP2.openCall(stream: UInt32(2 * $0 + 1), path: path, authority: "x") }
        #expect(client.send(RawHTTP2.preface + calls[0] + calls[1]))
        #expect(await Self.until { receiver.callsAwaitingMessage == 2 }, "two stalled calls fill the budget")
        #expect(client.send(calls[2]))
        // The third is answered (trailers) and its stream reset long before the 60-second deadline.
        let (frames, _) = await offPool {
            RawHTTP2.read(client, timeout: .seconds(60)) { frames in
                frames.contains { $0.type == RawHTTP2.resetStream && $0.stream == 5 }
            }
        }
        let five = frames.filter { $0.stream == 5 }.map(\.type)
        #expect(five.contains(RawHTTP2.headers), "answered before the reset: \(five)")
        #expect(five.last == RawHTTP2.resetStream, "then the stream was ended: \(five)")
        #expect(receiver.statistics.overBodyBudget == 1)
        #expect(receiver.bodyBytesInFlight == 2 * Self.cost, "the refused call holds nothing")
        client.close()
        #expect(await Self.until { receiver.bodyBytesInFlight == 0 }, "the stalled calls gave theirs back")
        await receiver.shutdown()
    }

    // MARK: The framing, on an embedded channel

    /// A stream gate on an embedded channel, with `budget` bytes of body budget.
    static func gate(budget: Int, maximumBodyBytes: Int = 4 << 20) throws -> (EmbeddedChannel, ConnectionSlots) {
        let connections = ConnectionSlots(capacity: 4, bodyBudget: budget)
        let limits = OTLPReceiver.Limits(maximumBodyBytes: maximumBodyBytes, bodyBudgetBytes: budget)
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            OTLPGRPCStreamGate(connections: connections, limits: limits, streamCost: 100))
        try channel.writeInbound(HTTP2Frame.FramePayload.headers(.init(headers: [":path": "/x"])))
        _ = try channel.readInbound(as: HTTP2Frame.FramePayload.self)
        return (channel, connections)
    }

    /// The DATA bytes passed on, and whether the last frame passed ended the stream.
    static func passed(_ channel: EmbeddedChannel) throws -> (bytes: [UInt8], ended: Bool) {
        var bytes: [UInt8] = []
        var ended = false
        while let payload = try channel.readInbound(as: HTTP2Frame.FramePayload.self) {
            guard case .data(let data) = payload, case .byteBuffer(let buffer) = data.data else { continue }
            bytes += Array(buffer.readableBytesView)
            ended = data.endStream
        }
        return (bytes, ended)
    }

    static func framed(_ message: [UInt8]) -> [UInt8] {
        [0] + withUnsafeBytes(of: UInt32(message.count).bigEndian) { Array($0) } + message
    }

    @Test func aMessageCutAnywhereIsPassedOnByteForByteAndItsLengthReserved() throws {
        let message = [UInt8](repeating: 7, count: 300)
        let bytes = Self.framed(message)
        for cut in [1, 2, 3, 4, 5, 6, 150, bytes.count - 1] {
            let (channel, connections) = try Self.gate(budget: 10_000)
            let first = ByteBuffer(bytes: bytes[..<cut])
            let second = ByteBuffer(bytes: bytes[cut...])
            try channel.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(first))))
            #expect(connections.bodyBytes == 100 + (cut >= 5 ? 300 : 0), "cut at \(cut)")
            try channel.writeInbound(
                HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(second), endStream: true)))
            let (passed, ended) = try Self.passed(channel)
            #expect(passed == bytes, "cut at \(cut)")
            #expect(ended)
            #expect(connections.bodyBytes == 400)
            _ = try channel.finish()
            #expect(connections.bodyBytes == 0, "given back when the stream ended")
        }
    }

    @Test func aMessageOverTheBudgetOrASecondMessageBecomesAStandInEndingTheCall() throws {
        let (channel, connections) = try Self.gate(budget: 350)
        // The prefix announces 300 bytes: with the call's 100, over the budget of 350.
        let bytes = Self.framed([UInt8](repeating: 7, count: 300))
        try channel.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(bytes: bytes)))))
        let (passed, ended) = try Self.passed(channel)
        #expect(passed == Self.framed(OTLPGRPCStreamGate.standIn(.overBudget(size: 300))))
        #expect(ended, "the call's input ends with the stand-in")
        #expect(connections.statistics.overBodyBudget == 1)
        try channel.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(bytes: bytes)))))
        #expect(try Self.passed(channel).bytes.isEmpty, "what the client still sends is dropped")
        _ = try channel.finish()
        #expect(connections.bodyBytes == 0)

        let (second, _) = try Self.gate(budget: 10_000)
        let two = Self.framed([1, 2, 3]) + Self.framed([UInt8](repeating: 9, count: 5_000))
        try second.writeInbound(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(ByteBuffer(bytes: two)))))
        let (secondPassed, secondEnded) = try Self.passed(second)
        #expect(secondPassed == Self.framed([1, 2, 3]) + Self.framed(OTLPGRPCStreamGate.standIn(.secondMessage)))
        #expect(secondEnded)
        _ = try second.finish()
    }

    @Test func theFramingFindsEveryPrefixWhereverTheBytesAreCut() {
        let messages: [[UInt8]] = [[], [1], [UInt8](repeating: 2, count: 70), [3, 3]]
        let stream = messages.flatMap(Self.framed)
        for chunk in 1...7 {
            var framing = OTLPGRPCMessageFraming()
            var lengths: [Int] = []
            var start = 0
            while start < stream.count {
                let end = min(start + chunk, stream.count)
                Array(stream[start..<end]).withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let step = framing.next(in: bytes, from: offset)
                        if case .prefix(_, let prefix) = step { lengths.append(prefix.length) }
                        offset += step.count
                    }
                }
                start = end
            }
            #expect(lengths == messages.map(\.count), "chunks of \(chunk)")
            #expect(framing.atMessageBoundary && framing.messages == messages.count)
        }
    }
}
