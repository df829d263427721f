import Foundation
import NIOPosix
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26's attacks on the OTLP/HTTP receiver, in-process with small limits: trickled requests, a full house of
/// slow connections, bodies over the budget, pipelined requests whose answers are never read, and decoding kept
/// off the event loops. Deadlines are sized for a loaded 2-core machine; nothing waits a while to synchronise.
@Suite(.timeLimit(.minutes(5)))
struct OTLPHostileTests {
    static let protobuf = ["Content-Type": "application/x-protobuf"]
    static let head = Array(
        "POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 100\r\n\r\n".utf8)

    /// A valid logs request of about `size` bytes.
    static func body(_ size: Int) throws -> [UInt8] {
        try OTLPFixtures.logs([OTLPFixtures.record(body: String(repeating: "x", count: max(size - 120, 1)))])
            .serializedBytes()
    }

    /// Waits (yielding, bounded by the suite's time limit) until `condition` holds.
    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aTrickledSecondRequestIsClosedAtItsDeadlineNotTheIdleTimeout() async throws {
        // A kept-alive connection trickling its next request's head: the deadline runs from its first byte.
        let limits = OTLPReceiver.Limits(requestTimeout: .milliseconds(500), idleTimeout: .seconds(200))
        let (receiver, probe, port) = try await startReceiver(limits: limits)
        defer { Task { await receiver.shutdown() } }
        let client = try #require(RawSocket(port: port))
        client.send(RawHTTP.request("/v1/logs", headers: Self.protobuf, body: try Self.body(200)))
        #expect(await offPool { client.readAnswer()?.status } == 200)
        let started = ContinuousClock.now
        // One byte every 20 ms of a head padded to 3,000 bytes: a minute to complete it, and the connection may idle
        // for 200 s; only a deadline from the first byte closes it within the test.
        let pad = "X-Pad: \(String(repeating: "p", count: 3_000))\r\n"
        let head = Array(("POST /v1/logs HTTP/1.1\r\n" + pad + "Content-Type: application/x-protobuf\r\n\r\n").utf8)
        let closed = await offPool { client.trickle(head, every: .milliseconds(20)) }
        #expect(closed, "the trickling connection was closed")
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(receiver.statistics.timedOutRequests == 1)
        #expect(probe.events.count == 1)
    }

    @Test func aNewConnectionEvictsTheOldestUnfinishedRequestWhenEverySlotIsHeld() async throws {
        // The stalled requests would outlast the test however loaded the machine is; eviction or shutdown ends them.
        let limits = OTLPReceiver.Limits(maximumConnections: 2, requestTimeout: .seconds(240))
        let (receiver, probe, port) = try await startReceiver(limits: limits)
        defer { Task { await receiver.shutdown() } }
        let oldest = try #require(RawSocket(port: port))
        oldest.send(Array(Self.head.prefix(20)))
        await Self.until { receiver.openConnections == 1 }
        let younger = try #require(RawSocket(port: port))
        younger.send(Array(Self.head.prefix(20)))
        await Self.until { receiver.openConnections == 2 }
        // Every slot is held: a good client is still answered, at the oldest holder's expense.
        for _ in 0..<3 {
            let answer = try await post(port, headers: Self.protobuf, body: try Self.body(100))
            #expect(answer.status == 200)
        }
        #expect(await offPool { oldest.waitForClose() }, "the oldest unfinished request gave way")
        #expect(receiver.statistics.evictedConnections >= 1)
        #expect(probe.events.count == 3)
        await receiver.shutdown()
        #expect(await offPool { younger.waitForClose() })
    }

    @Test func bodiesInFlightStayWithinTheBudget() async throws {
        let limits = OTLPReceiver.Limits(
            maximumBodyBytes: 64 * 1024, requestTimeout: .seconds(240), bodyBudgetBytes: 4_096)
        let (receiver, probe, port) = try await startReceiver(limits: limits)
        defer { Task { await receiver.shutdown() } }
        // A slow client holds 3,000 of the 4,096 bytes.
        let holder = try #require(RawSocket(port: port))
        holder.send(RawHTTP.request("/v1/logs", headers: Self.protobuf.merging(["Content-Length": "3000"]) { $1 }))
        await Self.until { receiver.bodyBytesInFlight == 3_000 }
        // A 2,000-byte body does not fit now: 503 with Retry-After, and it may be sent again.
        let refused = try await post(port, headers: Self.protobuf, body: try Self.body(2_000))
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        // A body larger than the whole budget never will: 413.
        let tooLarge = try await post(port, headers: Self.protobuf, body: try Self.body(5_000))
        #expect(tooLarge.status == 413)
        #expect(receiver.statistics.overBodyBudget == 2)
        #expect(probe.events.isEmpty)
        holder.close()
        await Self.until { receiver.bodyBytesInFlight == 0 }
        let accepted = try await post(port, headers: Self.protobuf, body: try Self.body(2_000))
        #expect(accepted.status == 200)
        #expect(receiver.bodyBytesInFlight == 0)
        #expect(probe.events.count == 1)
    }

    @Test func pipelinedRequestsWhoseAnswersAreNeverReadStopBeingReadAndAreClosed() async throws {
        let limits = OTLPReceiver.Limits(requestTimeout: .seconds(1), idleTimeout: .seconds(200))
        let (receiver, probe, port) = try await startReceiver(limits: limits)
        defer { Task { await receiver.shutdown() } }
        let client = try #require(RawSocket(port: port, receiveBuffer: 4_096))
        let request = RawHTTP.request("/v1/logs", headers: Self.protobuf, body: try Self.body(200))
        // Sends until the receiver stops taking them (the send blocks past its timeout), never reading an answer.
        let sent = await offPool {
            var sent = 0
            while sent < 200_000, client.send(request, timeout: .seconds(2)) { sent += 1 }
            return sent
        }
        await Self.until { receiver.openConnections == 0 }
        #expect(sent < 200_000, "the receiver stopped reading")
        #expect(probe.events.count < sent, "requests past the unread answers were not decoded")
        #expect(receiver.statistics.timedOutRequests == 1)
        // Closed for its unread answer; on a loaded machine the receiver may instead have read the first half of a
        // request whose sender had already given up (its send blocked past 2 s), and closed it for that request.
        let problem = probe.sources["client 127.0.0.1"]?.lastProblem ?? ""
        #expect(
            problem.contains("the answer was not read") || problem.contains("the request did not complete"),
            "\(problem)")
    }

    @Test func largeBodiesAreDecodedOffTheEventLoops() async throws {
        let onLoop = Mutex<[Bool]>([])
        let limits = OTLPReceiver.Limits(inlineDecodeBytes: 1_000)
        let receiver = OTLPReceiver(
            endpoint: OTLPEndpoint(port: 0), limits: limits,
            onEvents: { _, _ in onLoop.withLock { $0.append(MultiThreadedEventLoopGroup.currentEventLoop != nil) } })
        try await receiver.start()
        defer { Task { await receiver.shutdown() } }
        let port = try #require(receiver.localEndpoint?.port)
        #expect(try await post(port, headers: Self.protobuf, body: try Self.body(300)).status == 200)
        #expect(try await post(port, headers: Self.protobuf, body: try Self.body(5_000)).status == 200)
        #expect(onLoop.withLock { $0 } == [true, false])
    }

    @Test func oneRequestNamingThousandsOfResourcesIsOneStatusUpdateWithinTheTable() throws {
        let calls = Mutex<[(changed: Int, forgotten: Int)]>([])
        let registry = SenderRegistry(capacity: 100) { changed, forgotten in
            calls.withLock { $0.append((changed.count, forgotten.count)) }
        }
        var batch = OTLPMappedBatch()
        batch.groups = (0..<5_000).map { index in
            let identity = OTLPResourceIdentity(OTLPFixtures.resource(instance: "i-\(index)"))
            return OTLPMappedBatch.Group(identity: identity, records: 1)
        }
        let outcome = OTLPExchange.Outcome(
            result: .accepted(batch, answer: OTLPProtoExportLogsServiceRequest.answer(rejected: 0, message: "")))
        let rows = registry.record(outcome, grpc: false, peer: "127.0.0.1:1", host: "127.0.0.1", at: Date())
        #expect(rows.count == 5_000)
        let made = calls.withLock { $0 }
        #expect(made.count == 1)
        #expect(
            made.first?.changed == 100 && made.first?.forgotten == 0, "rows forgotten within the request are not news")
        #expect(registry.snapshot.map(\.instanceID) == (4_900..<5_000).map { "i-\($0)" }.sorted())
        // The next request forgets the least recently heard, and says so.
        batch.groups = [batch.groups[0]]
        registry.record(
            OTLPExchange.Outcome(
                result: .accepted(batch, answer: OTLPProtoExportLogsServiceRequest.answer(rejected: 0, message: ""))),
            grpc: false, peer: "p", host: "h", at: Date())
        #expect(calls.withLock { $0.last?.changed == 1 && $0.last?.forgotten == 1 })
    }

    @Test func theSourceTableForgetsTheLeastRecentlyHeard() {
        var table = RecentSourceTable(capacity: 3)
        var forgotten: [String] = []
        for key in ["a", "b", "c", "a", "d", "e"] {
            table.touch(key, peer: "p", forgetting: &forgotten) { $0.requests += 1 }
        }
        #expect(forgotten == ["b", "c"])
        #expect(Set(table.rows.keys) == ["a", "d", "e"])
        #expect(table.rows["a"]?.requests == 2)
    }
}
