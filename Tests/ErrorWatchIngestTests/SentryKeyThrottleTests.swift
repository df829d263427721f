import ErrorStreaming
import Foundation
import NIOHTTP1
import NIOPosix
import Testing

@testable import ErrorWatchIngest

/// Wrong keys from one address are slowed: `401` up to the threshold within a window, then `429` with
/// `Retry-After` until the window ends; counted as refused in the client's row. Time is a `ManualClock`.
struct SentryKeyThrottleTests {
    static func head(key: String) -> HTTPRequestHead {
        HTTPRequestHead(
            version: .http1_1, method: .POST, uri: "/api/1/envelope/",
            headers: ["X-Sentry-Auth": "Sentry sentry_key=\(key), sentry_client=sentry.python/2.75.0"])
    }

    static func status(_ check: HTTPIngestCheck<SentryExchange.Accepted>) -> (Int, Int?) {
        switch check {
        case .accepted: (200, nil)
        case .refused(let response): (Int(response.status.code), response.retryAfter)
        }
    }

    @Test func pastTheThresholdWrongKeysAre429UntilTheWindowEnds() {
        let clock = ManualClock()
        var exchange = SentryExchange(
            limits: HTTPReceiverLimits(), requiredKey: "secret", admit: { _ in true }, now: { Date() })
        exchange.keyThrottle = SentryKeyThrottle(clock: clock, threshold: 3, window: .seconds(10))
        for _ in 0..<3 { #expect(Self.status(exchange.check(Self.head(key: "wrong"), host: "10.0.0.7")).0 == 401) }
        #expect(Self.status(exchange.check(Self.head(key: "wrong"), host: "10.0.0.7")) == (429, 10))
        // The right key from the same address, and wrong keys from another, are not slowed.
        #expect(Self.status(exchange.check(Self.head(key: "secret"), host: "10.0.0.7")).0 == 200)
        #expect(Self.status(exchange.check(Self.head(key: "wrong"), host: "10.0.0.8")).0 == 401)
        clock.advance(by: .milliseconds(3_500))
        #expect(Self.status(exchange.check(Self.head(key: "wrong"), host: "10.0.0.7")) == (429, 7))
        clock.advance(by: .milliseconds(6_500))
        // A new window: the count starts again.
        #expect(Self.status(exchange.check(Self.head(key: "wrong"), host: "10.0.0.7")).0 == 401)
    }

    @Test func theThrottleRemembersABoundedNumberOfAddresses() {
        let clock = ManualClock()
        let throttle = SentryKeyThrottle(clock: clock, threshold: 1, window: .seconds(60))
        #expect(throttle.wrongKey(from: "first") == nil)
        #expect(throttle.wrongKey(from: "first") == 60)
        clock.advance(by: .seconds(1))
        for index in 0..<SentryKeyThrottle.maximumAddresses { _ = throttle.wrongKey(from: "host \(index)") }
        // The oldest window gave way: "first" starts again.
        #expect(throttle.wrongKey(from: "first") == nil)
    }

    @Test func aThrottledRequestIsAnswered429OverTheSocketAndCountedAsRefused() async throws {
        let clock = ManualClock()
        let probe = SentryProbe()
        let receiver = SentryReceiver(
            endpoint: SentryEndpoint(port: 0), requiredKey: "secret", limits: HTTPReceiverLimits(),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, hasRoom: { _ in true },
            keyThrottle: SentryKeyThrottle(clock: clock, threshold: 2, window: .seconds(30)),
            onStatus: { probe.update($0, forgetting: $1) }, onSpans: { _, _ in }, onEvents: { probe.deliver($0, $1) })
        try await receiver.start()
        defer { Task { await receiver.shutdown() } }
        let port = try #require(receiver.localEndpoint?.port)
        let body = SentryReceiverTests.envelope([SentryReceiverTests.error])
        let auth = ["X-Sentry-Auth": SentryReceiverTests.auth]
        for _ in 0..<2 { #expect(try await post(port, "/api/1/envelope/", headers: auth, body: body).status == 401) }
        let slowed = try await post(port, "/api/1/envelope/", headers: auth, body: body)
        #expect(slowed.status == 429)
        #expect(slowed.headers["retry-after"] == "30")
        #expect(slowed.headers["x-sentry-rate-limits"] == "30::key")
        #expect(probe.events.isEmpty)
        let row = try #require(probe.sources["client 127.0.0.1"])
        #expect(row.badRequests == 2)
        #expect(row.refused == 1)
        #expect(row.lastProblem?.hasPrefix("429: more than 2 requests without the right sentry_key") == true)
    }
}
