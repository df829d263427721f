import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing

@testable import ErrorWatchIngest

/// Issue 33, item 2: the next receiver is one file. A toy protocol (`POST /lines`, a body of `KEY TEXT` lines,
/// answered `ok N`) written here, as a service and nothing else, gets from the shared receiver shape: the address
/// and its errors, connection slots with eviction, request deadlines, the body budget, one row per sender in the
/// one registry every protocol uses, and a shutdown that closes what is open.
struct ToyReceiverTests {
    /// The whole protocol.
    struct ToyLines: HTTPIngestService {
        let registry: SenderRegistry
        let connections: ConnectionSlots

        func check(_ head: HTTPRequestHead) -> HTTPIngestCheck<Void> {
            guard head.uri == "/lines", head.method == .POST else { return .refused(answer(.notFound, "POST /lines")) }
            return .accepted(())
        }

        func refusal(_ status: HTTPResponseStatus, _ message: String, for accepted: Void?) -> HTTPIngestResponse {
            answer(status, message)
        }

        func record(refused response: HTTPIngestResponse, problem: String?, peer: String, host: String) {
            _ = registry.record(peer: peer) { request in
                request.touch("client " + host) { status, _ in
                    status.badRequests += 1
                    status.lastProblem = problem
                }
            }
        }

        func run(_ accepted: Void, body: ByteBuffer, reserved: Int, peer: String, host: String) -> HTTPIngestResponse {
            defer { connections.release(reserved) }
            let lines = String(decoding: body.readableBytesView, as: UTF8.self).split(separator: "\n")
            registry.record(peer: peer) { request in
                for line in lines {
                    request.touch(String(line.prefix { $0 != " " })) { status, first in
                        if first { status.requests += 1 }
                        status.events += 1
                    }
                }
            }
            return answer(.ok, "ok \(lines.count)")
        }

        func answer(_ status: HTTPResponseStatus, _ message: String) -> HTTPIngestResponse {
            HTTPIngestResponse(status: status, contentType: "text/plain", body: Array(message.utf8), message: message)
        }
    }

    /// Runs `body` with an event loop of its own, shut down after: the whole suite's requests (one of 100,000 spans)
    /// share NIO's singleton loops, and a loop busy with them for seconds must not decide what these tests see.
    static func withOwnLoop(_ body: (any EventLoopGroup) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await body(group)
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }

    static func receiver(connections: Int = 2, group: any EventLoopGroup) -> HTTPReceiver<ToyLines> {
        let registry = SenderRegistry { _, _ in }
        return HTTPReceiver(
            address: .tcp(host: "127.0.0.1", port: 0), name: "toy:127.0.0.1:0",
            // A deadline no loaded machine reaches: only the connection limit closes a connection in these tests.
            limits: HTTPReceiverLimits(maximumConnections: connections, requestTimeout: .seconds(3600)),
            group: group
        ) { ToyLines(registry: registry, connections: $0) }
    }

    @Test func aToyProtocolGetsRowsFromTheRegistry() async throws {
        try await Self.withOwnLoop { group in try await rowsFromTheRegistry(group: group) }
    }

    func rowsFromTheRegistry(group: any EventLoopGroup) async throws {
        let receiver = Self.receiver(group: group)
        let port = try await receiver.start().port
        let answer = try await post(port, "/lines", headers: [:], body: Array("shop paid\nshop shipped\nbilling sent\n".utf8))
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "ok 3")
        let rows = receiver.service.registry.snapshot
        #expect(rows.map(\.key) == ["billing", "shop"])
        #expect(rows.map(\.events) == [1, 2])
        let refused = try await post(port, "/nope", headers: [:])
        #expect(refused.status == 404)
        #expect(receiver.service.registry.snapshot.contains { $0.key == "client 127.0.0.1" && $0.badRequests == 1 })
        await receiver.shutdown()
    }

    @Test func aToyProtocolGetsTheConnectionLimitAndShutdown() async throws {
        try await Self.withOwnLoop { group in try await connectionLimitAndShutdown(group: group) }
    }

    func connectionLimitAndShutdown(group: any EventLoopGroup) async throws {
        let receiver = Self.receiver(connections: 2, group: group)
        let port = try await receiver.start().port
        // One connection holds an unfinished request; another finished one and is kept alive, idle.
        let first = try #require(RawSocket(port: port))
        #expect(first.send(Array("POST /lines HTTP/1.1\r\nContent-Length: 100\r\n\r\nshop".utf8)))
        let second = try #require(RawSocket(port: port))
        let done = await offPool {
            second.send(Array("POST /lines HTTP/1.1\r\nContent-Length: 10\r\n\r\nshop paid\n".utf8))
                ? second.readAnswer() : nil
        }
        #expect(done?.status == 200)
        // A newcomer takes the unfinished request's slot, not the idle one's (slots are taken back from trickling
        // requests first).
        let third = try #require(RawSocket(port: port))
        #expect(await offPool { first.waitForClose() }, "the unfinished request was evicted")
        #expect(receiver.connections.statistics.evictedConnections == 1)
        // Shutdown closes what is still open, and gives every slot back before it returns.
        await receiver.shutdown()
        #expect(receiver.connections.count == 0)
        #expect(await offPool { second.waitForClose() })
        #expect(await offPool { third.waitForClose() })
    }
}
