import CZlib
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// Collects what a Sentry receiver delivered.
final class SentryProbe: Sendable {
    private let state = Mutex<(events: [SentryMappedEvent], sources: [String: SenderStatus])>(([], [:]))

    var events: [SentryMappedEvent] { state.withLock { $0.events } }
    var sources: [String: SenderStatus] { state.withLock { $0.sources } }

    func deliver(_ source: SenderStatus, _ events: [SentryMappedEvent]) {
        state.withLock { $0.events += events }
    }

    func update(_ changed: [SenderStatus], forgetting forgotten: [String]) {
        state.withLock { state in
            for status in changed { state.sources[status.key] = status }
            for key in forgotten { state.sources[key] = nil }
        }
    }
}

/// The Sentry receiver over a real socket: the three endpoints, keys, encodings, limits and back-pressure, each
/// answered with the status an SDK understands and counted against its client.
struct SentryReceiverTests {
    static let auth = "Sentry sentry_key=k1, sentry_version=7, sentry_client=sentry.python/2.75.0"

    static func start(
        key: String? = nil, limits: HTTPReceiverLimits = HTTPReceiverLimits(),
        room: @escaping @Sendable (Int) -> Bool = { _ in true }
    ) async throws -> (SentryReceiver, SentryProbe, Int) {
        let probe = SentryProbe()
        let receiver = SentryReceiver(
            endpoint: SentryEndpoint(port: 0), requiredKey: key, limits: limits, hasRoom: room,
            onStatus: { probe.update($0, forgetting: $1) }, onEvents: { probe.deliver($0, $1) })
        try await receiver.start()
        return (receiver, probe, try #require(receiver.localEndpoint?.port))
    }

    static func envelope(_ events: [String], release: String = "shop@1") -> [UInt8] {
        var text = #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","dsn":"http://k1@127.0.0.1/1"}"# + "\n"
        for event in events {
            let payload = event.replacingOccurrences(of: "RELEASE", with: release)
            text += #"{"type":"event","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
        }
        text += #"{"type":"client_report"}"# + "\n{}\n"
        return Array(text.utf8)
    }

    static let error = #"{"release":"RELEASE","exception":{"values":[{"type":"ValueError","value":"bad"}]}}"#

    @Test func aGzipEnvelopeIsDeliveredAndItsClientIsARow() async throws {
        let (receiver, probe, port) = try await Self.start()
        defer { Task { await receiver.shutdown() } }
        let response = try await post(
            port, "/api/1/envelope/",
            headers: [
                "X-Sentry-Auth": Self.auth, "Content-Encoding": "gzip",
                "Content-Type": "application/x-sentry-envelope",
            ], body: gzip(Self.envelope([Self.error])))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":"9ec79c33ec9942ab8353589fcb2e04dc"}"#)
        #expect(probe.events.map(\.event.exceptionType) == ["ValueError"])
        let row = try #require(probe.sources["sentry.python/2.75.0 shop@1"])
        #expect(row.requests == 1)
        #expect(row.events == 1)
        #expect(row.rejected == 1)  // the client report
        #expect(row.displayName == "sentry.python/2.75.0 (shop@1)")
    }

    @Test func theStoreEndpointTakesOneEventAndTheStreamEndpointAnEnvelope() async throws {
        let (receiver, probe, port) = try await Self.start()
        defer { Task { await receiver.shutdown() } }
        let stored = try await post(
            port, "/api/7/store/?sentry_key=k1&sentry_client=raven-js/3", headers: ["Content-Encoding": "deflate"],
            body: zlibDeflate(Array(Self.error.replacingOccurrences(of: "RELEASE", with: "a").utf8)))
        #expect(stored.status == 200)
        let streamed = try await post(port, "/stream", headers: [:], body: Self.envelope([Self.error], release: "b"))
        #expect(streamed.status == 200)
        #expect(probe.events.count == 2)
        #expect(probe.sources.keys.contains("raven-js/3 a"))
        #expect(probe.sources.keys.contains("unknown client b"))
    }

    @Test func aRequiredKeyRefusesWrongAndMissingKeysWith401() async throws {
        let (receiver, probe, port) = try await Self.start(key: "secret")
        defer { Task { await receiver.shutdown() } }
        let wrong = try await post(
            port, "/api/1/envelope/", headers: ["X-Sentry-Auth": Self.auth], body: Self.envelope([Self.error]))
        #expect(wrong.status == 401)
        let missing = try await post(port, "/api/1/envelope/", headers: [:], body: Self.envelope([Self.error]))
        #expect(missing.status == 401)
        // Spotlight sends no key: the envelope's dsn must carry it.
        let spotlight = try await post(port, "/stream", headers: [:], body: Self.envelope([Self.error]))
        #expect(spotlight.status == 401)
        let right = try await post(
            port, "/api/1/envelope/?sentry_key=secret", headers: [:], body: Self.envelope([Self.error]))
        #expect(right.status == 200)
        #expect(probe.events.count == 1)
        #expect(probe.sources.values.reduce(0) { $0 + $1.badRequests } == 3)
    }

    @Test func wrongPathsMethodsAndEncodingsAreRefusedWithTheirReason() async throws {
        let (receiver, probe, port) = try await Self.start()
        defer { Task { await receiver.shutdown() } }
        for path in ["/api/abc/envelope/", "/prefix/api/1/envelope/", "/api/1/unknown/", "/"] {
            let response = try await post(port, path, headers: [:], body: Self.envelope([Self.error]))
            #expect(response.status == 404, "\(path)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("/api/<numeric project>/envelope/"))
        }
        let get = try #require(await RawHTTP.exchange(port: port, RawHTTP.request("/api/1/envelope/", method: "GET")))
        #expect(get.status == 405)
        let brotli = try await post(
            port, "/api/1/envelope/", headers: ["Content-Encoding": "br"], body: Self.envelope([Self.error]))
        #expect(brotli.status == 415)
        #expect(String(decoding: brotli.body, as: UTF8.self).contains("use gzip, deflate or none"))
        let noHeader = try await post(port, "/api/1/envelope/", headers: [:], body: Array("\n".utf8))
        #expect(noHeader.status == 400)
        let corrupt = try await post(
            port, "/api/1/envelope/", headers: ["Content-Encoding": "gzip"], body: Array("not gzip".utf8))
        #expect(corrupt.status == 400)
        #expect(probe.events.isEmpty)
    }

    @Test func bodiesOverTheLimitAndGzipBombsAre413() async throws {
        let (receiver, probe, port) = try await Self.start(limits: HTTPReceiverLimits(maximumBodyBytes: 64 * 1024))
        defer { Task { await receiver.shutdown() } }
        let declared = try await post(
            port, "/api/1/envelope/", headers: ["Content-Length": "100000000"], body: [])
        #expect(declared.status == 413)
        let bomb = gzip([UInt8](repeating: 0x20, count: 10_000_000))
        #expect(bomb.count < 64 * 1024)
        let inflated = try await post(port, "/api/1/envelope/", headers: ["Content-Encoding": "gzip"], body: bomb)
        #expect(inflated.status == 413)
        #expect(probe.events.isEmpty)
    }

    @Test func aDashboardBehindAnswers429WithRateLimitsAndKeepsNothing() async throws {
        let (receiver, probe, port) = try await Self.start(room: { _ in false })
        defer { Task { await receiver.shutdown() } }
        let response = try await post(
            port, "/api/1/envelope/", headers: ["X-Sentry-Auth": Self.auth], body: Self.envelope([Self.error]))
        #expect(response.status == 429)
        #expect(response.headers["retry-after"] == "1")
        #expect(response.headers["x-sentry-rate-limits"] == "1::key")
        #expect(probe.events.isEmpty)
        #expect(probe.sources["sentry.python/2.75.0 shop@1"]?.refused == 1)
    }

    @Test func brokenItemsAreSkippedCountedAndTheRestKept() async throws {
        let (receiver, probe, port) = try await Self.start()
        defer { Task { await receiver.shutdown() } }
        var body = Self.envelope([Self.error])
        body += Array((#"{"type":"event","length":3}"# + "\nabc\n" + "not a header\n").utf8)
        body += Array((#"{"type":"attachment","length":4}"# + "\nDATA\n").utf8)
        let response = try await post(port, "/api/1/envelope/", headers: ["X-Sentry-Auth": Self.auth], body: body)
        #expect(response.status == 200)
        #expect(probe.events.count == 1)
        let row = try #require(probe.sources["sentry.python/2.75.0 shop@1"])
        #expect(row.attachments == 1)
        #expect(row.rejected == 3)  // the client report, the event that is not JSON, the broken header
        #expect(row.lastProblem != nil)
    }
}

/// zlib's deflate with a zlib header (what HTTP's `Content-Encoding: deflate` names).
func zlibDeflate(_ bytes: [UInt8]) -> [UInt8] {
    // The gzip helper's output with a zlib wrapper instead: compress with windowBits 15.
    var output = [UInt8](repeating: 0, count: bytes.count + 1_024)
    var length = UInt(output.count)
    _ = compress(&output, &length, bytes, UInt(bytes.count))
    return Array(output.prefix(Int(length)))
}
