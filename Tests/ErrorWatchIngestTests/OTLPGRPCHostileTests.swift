import Foundation
import SwiftProtobuf
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// The issue's bad input over OTLP/gRPC, against the real receiver: a client opening a thousand streams and
/// stalling, a message over twice the size limit, malformed trace messages, a trace of 100,000 spans, a span with
/// 10,000 events, ids of the wrong length, parents that are the span itself or nothing, timestamps of 0 and in 2200
/// (the mapping of each is tested in OTLPTraceMappingTests; here, that it holds end to end over gRPC).
/// Each gets its status or is dropped and counted per client, and a well-behaved client's calls still succeed.
@Suite(.timeLimit(.minutes(5)))
struct OTLPGRPCHostileTests {
    static let exportLogs = "/opentelemetry.proto.collector.logs.v1.LogsService/Export"

    /// Waits (yielding, bounded by `limit`) until `condition` holds; false when it did not.
    static func until(within limit: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            await Task.yield()
        }
        return true
    }

    /// The preface and `count` HEADERS frames opening Export calls that never send their message.
    static func stallingCalls(_ count: Int, port: Int) -> [UInt8] {
        var bytes = RawHTTP2.preface
        for index in 0..<count {
            bytes += RawHTTP2.openCall(stream: UInt32(2 * index + 1), path: exportLogs, authority: "127.0.0.1:\(port)")
        }
        return bytes
    }

    @Test func aClientOpeningAThousandStreamsLosesItsConnectionAndItsCallsAreCountedWhileOthersGoOn() async throws {
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        let attacker = try #require(RawSocket(port: port))
        #expect(attacker.send(Self.stallingCalls(1_000, port: port)))
        // Opening a stream past SETTINGS_MAX_CONCURRENT_STREAMS breaks HTTP/2: swift-nio-http2 ends the whole
        // connection with a GOAWAY, and the calls it had admitted end with it.
        let (frames, closed) = await offPool {
            RawHTTP2.read(attacker, timeout: .seconds(60)) { $0.contains { $0.type == RawHTTP2.goAway } }
        }
        #expect(frames.contains { $0.type == RawHTTP2.goAway } || closed, "the connection was ended")
        // The breach is counted against the client on the connection itself, whether or not the server had
        // started any of the admitted calls before the connection closed (that depends on scheduling).
        let client = "client 127.0.0.1"
        let breach = await Self.until {
            probe.problems[client]?.first?.hasPrefix("PROTOCOL_ERROR: opened more than") == true
        }
        #expect(breach, "the breach was counted first: \(probe.problems[client] ?? [])")
        #expect(await Self.until { receiver.callsAwaitingMessage == 0 }, "nothing is held")
        // Each call the service had started ended UNAVAILABLE with its connection and was counted too.
        let settled = await Self.until {
            let problems = probe.problems[client] ?? []
            return probe.sources[client]?.badRequests == UInt64(problems.count)
        }
        let problems = probe.problems[client] ?? []
        #expect(settled, "every problem was one count: \(problems)")
        #expect(problems.dropFirst().allSatisfy { $0.hasPrefix("UNAVAILABLE: ") }, "\(problems)")
        #expect(problems.count <= 1 + OTLPGRPCReceiver.maximumStreamsPerConnection)
        // Another client's call is answered, and its records delivered.
        let answer = try await OTLPGRPCReceiverTests.withExporter(port: port) {
            try await $0.export(.logs, body: OTLPGRPCReceiverTests.logs)
        }
        attacker.close()
        await receiver.shutdown()
        #expect(answer.isOK)
        #expect(probe.events.count == 2)
        #expect(probe.sources["shop/i-1"]?.requests == 1)
    }

    @Test func aClientStallingAsManyStreamsAsAllowedHoldsThemUntilTheDeadlineWhileOthersGoOn() async throws {
        // A deadline long enough for the other client's call below to happen while the streams are held.
        let limits = OTLPReceiver.Limits(requestTimeout: .seconds(4))
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        let attacker = try #require(RawSocket(port: port))
        let limit = OTLPGRPCReceiver.maximumStreamsPerConnection
        let opened = ContinuousClock.now
        #expect(attacker.send(Self.stallingCalls(limit, port: port)))
        let reading = Task {
            await offPool {
                RawHTTP2.read(attacker, timeout: .seconds(60)) { frames in
                    Set(
                        frames.filter {
                            $0.type == RawHTTP2.resetStream
                                || ($0.type == RawHTTP2.headers && $0.flags & RawHTTP2.endStream != 0)
                        }.map(\.stream)
                    ).count >= limit
                }
            }
        }
        // Each stalled call holds its cost in the body budget from its headers (the stream gate, on the event
        // loop) until its deadline, which runs from then too: on a loaded machine some may reach the deadline
        // before others reach the service, so it is the budget that says all are held.
        let held = limit * OTLPGRPCReceiver.streamCostBytes
        #expect(await Self.until { receiver.bodyBytesInFlight == held }, "the stalled calls are held")
        // Meanwhile another client's call is answered, and its records delivered.
        let answer = try await OTLPGRPCReceiverTests.withExporter(port: port) {
            try await $0.export(.logs, body: OTLPGRPCReceiverTests.logs)
        }
        #expect(answer.isOK)
        #expect(probe.events.count == 2)
        let (frames, _) = await reading.value
        let took = ContinuousClock.now - opened
        attacker.close()
        await receiver.shutdown()

        let ended = Set(frames.filter { $0.type == RawHTTP2.headers && $0.flags & RawHTTP2.endStream != 0 }.map(\.stream))
        let kinds = Dictionary(grouping: frames, by: \.type).mapValues(\.count)
        #expect(ended.count == limit, "every call was ended by the server's trailers; frames by type: \(kinds)")
        #expect(took >= limits.requestTimeout, "the calls were held until the deadline, not longer than needed")
        #expect(receiver.statistics.timedOutRequests == UInt64(limit))
        let client = try #require(probe.sources["client 127.0.0.1"])
        #expect(client.badRequests == UInt64(limit))
        #expect(client.lastProblem?.hasPrefix("DEADLINE_EXCEEDED: ") == true, "\(client.lastProblem ?? "none")")
        #expect(probe.sources["shop/i-1"]?.requests == 1)
    }

    @Test func aMessageFarOverTheLimitIsResourceExhaustedUnreadAndTheConnectionGoesOn() async throws {
        let limits = OTLPReceiver.Limits(maximumBodyBytes: 4_096)
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start(limits: limits)
        // Far past the transport's own stop at twice the limit, where it used to reset the stream (UNAVAILABLE,
        // which SDKs retry): the size gate answers from the announced length, before anything is buffered.
        let huge: [UInt8] = try OTLPFixtures.logs([
            OTLPFixtures.record(body: String(repeating: "x", count: 64 * limits.maximumBodyBytes))
        ]).serializedBytes()
        let (over, after) = try await OTLPGRPCReceiverTests.withExporter(port: port, gzip: false) { exporter in
            (
                try await exporter.export(.logs, body: huge),
                try await exporter.export(.logs, body: OTLPGRPCReceiverTests.logs)
            )
        }
        await receiver.shutdown()
        #expect(over.code == "RESOURCE_EXHAUSTED")
        #expect(over.message == "the message is \(huge.count) bytes, over the limit of 4096")
        #expect(over.retryAfter == nil, "not to be retried")
        #expect(after.isOK, "the connection's next call is unaffected")
        #expect(probe.events.count == 2)
        #expect(probe.sources["client 127.0.0.1"]?.badRequests == 1)
        #expect(probe.problems["client 127.0.0.1"] == ["RESOURCE_EXHAUSTED: \(over.message ?? "")"])
    }

    @Test func theStandInMessageSaysItsRefusalAndNothingElseReadsAsOne() {
        let refusals: [OTLPGRPCStreamGate.StandIn] = [
            .tooLarge(size: 4_097, compressed: false), .tooLarge(size: 1 << 31, compressed: true),
            .tooLarge(size: Int(UInt32.max), compressed: false), .overBudget(size: 3_900_000), .noRoomForCall,
            .secondMessage, .deadline,
        ]
        for refusal in refusals {
            let read = OTLPGRPCStreamGate.standIn(refusal).withUnsafeBytes { OTLPGRPCStreamGate.StandIn(reading: $0) }
            #expect(read == refusal)
        }
        let truncated = Array(OTLPGRPCStreamGate.standIn(.overBudget(size: 70_000)).dropLast())
        for message in [OTLPGRPCReceiverTests.logs, [], truncated] {
            #expect(message.withUnsafeBytes { OTLPGRPCStreamGate.StandIn(reading: $0) } == nil)
        }
    }

    @Test func anAnswerIsSentUncompressedWhateverTheClientAccepts() async throws {
        // Every gRPC client library lists gzip in grpc-accept-encoding. The transport would answer compressed,
        // holding a zlib compressor (about 256 KiB) for each call in flight to deflate a few bytes; the receiver
        // takes the header off first (OTLPGRPCPlainAnswers), so the answer's message is not compressed.
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        let client = try #require(RawSocket(port: port))
        let call = RawHTTP2.openCall(
            stream: 1, path: Self.exportLogs, authority: "127.0.0.1:\(port)",
            extra: [("grpc-accept-encoding", "gzip,deflate,identity")])
        #expect(client.send(RawHTTP2.preface + call + RawHTTP2.message(stream: 1, OTLPGRPCReceiverTests.logs)))
        let (frames, _) = await offPool {
            RawHTTP2.read(client, timeout: .seconds(60)) { frames in
                frames.contains { $0.type == RawHTTP2.headers && $0.stream == 1 && $0.flags & RawHTTP2.endStream != 0 }
            }
        }
        client.close()
        await receiver.shutdown()
        let answer = try #require(frames.first { $0.type == RawHTTP2.data && $0.stream == 1 })
        #expect(answer.payload.first == 0, "the answer's message is not compressed")
        #expect(probe.events.count == 2, "the call was handled")
    }

    /// The trace requests below, each sent over gRPC: (body, what the call must answer and deliver).
    static func call(_ port: Int, _ request: OTLPProtoExportTraceServiceRequest) async throws
        -> OTLPGRPCExporter.Answer
    {
        let body: [UInt8] = try request.serializedBytes()
        return try await OTLPGRPCReceiverTests.withExporter(port: port) { try await $0.export(.traces, body: body) }
    }

    @Test func malformedTraceMessagesAreInvalidArgumentAndCounted() async throws {
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        let answer = try await OTLPGRPCReceiverTests.withExporter(port: port) {
            try await $0.export(.traces, body: [0x0A, 0x05, 0x12, 0xFF, 0xFF])
        }
        await receiver.shutdown()
        #expect(answer.code == "INVALID_ARGUMENT")
        #expect(probe.spans.isEmpty && probe.events.isEmpty)
        #expect(probe.sources["client 127.0.0.1"]?.badRequests == 1)
    }

    @Test func aTraceOfOneHundredThousandSpansIsTakenWhole() async throws {
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        var spans: [OTLPProtoTraceSpan] = []
        spans.reserveCapacity(100_000)
        for index in 0..<100_000 {
            var span = OTLPProtoTraceSpan()
            span.traceID = OTLPFixtures.traceID
            span.spanID = Data(withUnsafeBytes(of: UInt64(index + 1).bigEndian) { Array($0) })
            span.name = "s"
            spans.append(span)
        }
        spans[99_999].status.code = .error
        let answer = try await Self.call(port, OTLPFixtures.traces(spans))
        await receiver.shutdown()
        guard case .ok(let bytes) = answer else {
            Issue.record("the export failed: \(answer)")
            return
        }
        #expect(try OTLPProtoExportTraceServiceResponse(serializedBytes: bytes).partialSuccess.rejectedSpans == 0)
        #expect(probe.spans.count == 100_000)
        #expect(probe.events.count == 1, "the one ERROR span at the bottom of the chain")
        #expect(probe.sources["shop/i-1"]?.records == 100_000)
    }

    @Test func aSpanWithTenThousandEventsIsKeptWithItsExceptionsCappedAndCounted() async throws {
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        var span = OTLPFixtures.span("storm", id: 1, exceptions: [("Boom", "again")])
        let exception = span.events[0]
        span.events = (0..<10_000).map { index in
            var event = exception
            event.attributes[1].value.stringValue = "again #\(index)"
            return event
        }
        let answer = try await Self.call(port, OTLPFixtures.traces([span]))
        await receiver.shutdown()
        #expect(answer.isOK)
        #expect(probe.spans.count == 1)
        #expect(probe.events.count == OTLPTraceMapper.maximumExceptionEventsPerSpan)
        let source = try #require(probe.sources["shop/i-1"])
        #expect(source.rejected == UInt64(10_000 - OTLPTraceMapper.maximumExceptionEventsPerSpan))
    }

    @Test func wrongLengthIdsAreAPartialSuccessAndOddParentsAndTimesAreKeptAsSent() async throws {
        let (receiver, probe, port) = try await OTLPGRPCReceiverTests.start()
        var shortTrace = OTLPFixtures.span("short trace", id: 1)
        shortTrace.traceID = Data([1, 2, 3])
        var longSpan = OTLPFixtures.span("long span", id: 2)
        longSpan.spanID = Data(repeating: 1, count: 9)
        var own = OTLPFixtures.span("own parent", id: 3, status: .error)
        own.parentSpanID = OTLPFixtures.spanID(3)
        let orphan = OTLPFixtures.span("orphan", id: 4, parent: 99, exceptions: [("E", "orphaned")])
        var zero = OTLPFixtures.span("zero", id: 5, exceptions: [("E", "at zero")])
        (zero.startTimeUnixNano, zero.endTimeUnixNano, zero.events[0].timeUnixNano) = (0, 0, 0)
        let year2200: UInt64 = 7_258_118_400_000_000_000
        var future = OTLPFixtures.span("future", id: 6, exceptions: [("E", "in 2200")])
        (future.startTimeUnixNano, future.endTimeUnixNano) = (year2200, year2200 + 1_000)
        future.events[0].timeUnixNano = year2200 + 500
        let answer = try await Self.call(port, OTLPFixtures.traces([shortTrace, longSpan, own, orphan, zero, future]))
        await receiver.shutdown()
        guard case .ok(let bytes) = answer else {
            Issue.record("the export failed: \(answer)")
            return
        }
        let partial = try OTLPProtoExportTraceServiceResponse(serializedBytes: bytes).partialSuccess
        #expect(partial.rejectedSpans == 2)
        #expect(partial.errorMessage.contains("bytes"))
        #expect(probe.spans.map(\.name) == ["own parent", "orphan", "zero", "future"])
        #expect(probe.spans.map(\.startUnixNano).suffix(2) == [0, year2200])
        let messages = probe.events.compactMap(\.exceptionMessage)
        #expect(Set(messages) == ["orphaned", "at zero", "in 2200"])
        #expect(probe.events.count == 4, "three exceptions and the ERROR span whose parent is itself")
        let future2200 = probe.events.first { $0.exceptionMessage == "in 2200" }
        #expect(future2200?.time == OTLPLogMapper.date(unixNanos: year2200 + 500))
        #expect(probe.sources["shop/i-1"]?.rejected == 2)
    }
}
