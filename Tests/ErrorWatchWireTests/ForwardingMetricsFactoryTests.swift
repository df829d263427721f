import CoreMetrics
import Foundation
import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

@Suite(.timeLimit(.minutes(5)))
struct ForwardingMetricsFactoryTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)
    let source = SourceInfo(serviceName: "shop", pid: 321, host: "test-host")

    /// A listener on a fresh Unix socket, a started forwarder to it, and the factory under test.
    func connected() async throws -> (FeedProbe, FeedListener, ErrorForwarder, ForwardingMetricsFactory) {
        let path = try temporaryDirectory() + "/metrics.sock"
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        let forwarder = ErrorForwarder(endpoint: .unix(path: path), source: source)
        forwarder.start()
        return (probe, listener, forwarder, ForwardingMetricsFactory(forwarder: forwarder, now: { Self.time }))
    }

    @Test func eachMetricTypeArrivesAsItsMetricKind() async throws {
        let (probe, listener, forwarder, factory) = try await connected()
        let route = [("route", "/cart")]
        Counter(label: "orders.placed", dimensions: route, factory: factory).increment(by: 3)
        FloatingPointCounter(label: "bytes.sent", factory: factory).increment(by: 0.25)
        Gauge(label: "queue.depth", dimensions: route, factory: factory).record(7)
        // A repeated dimension: the later value wins, as when a dictionary is built from the pairs.
        Recorder(label: "order.size", dimensions: [("k", "first"), ("k", "second")], factory: factory).record(2.5)
        CoreMetrics.Timer(label: "http.server.duration", dimensions: route, factory: factory).recordNanoseconds(
            1_500_000)
        let meter = Meter(label: "connections", factory: factory)
        meter.set(4)
        meter.increment(by: 2)
        meter.decrement(by: 1)
        try await probe.until { $0.events.count == 8 }

        let events = probe.events.map(\.1)
        let summary = events.map {
            "\($0.metricName ?? "?") \($0.metricKind.map(\.rawValue) ?? "?") \($0.metricValue ?? .nan)"
        }
        #expect(
            summary == [
                "orders.placed counter 3.0", "bytes.sent counter 0.25", "queue.depth gauge 7.0",
                "order.size histogram 2.5", "http.server.duration histogram 1.5", "connections gauge 4.0",
                "connections gauge 6.0", "connections gauge 5.0",
            ])
        for event in events {
            #expect(event.kind == .metric && event.time == Self.time)
            #expect(event.serviceName == "shop" && event.pid == 321 && event.hostName == "test-host")
        }
        let timer = events[4]
        #expect(timer.metricUnit == "ms" && timer.attributes == ["route": "/cart"])
        #expect(events[0].attributes == ["route": "/cart"] && events[0].metricUnit == nil)
        #expect(events[3].attributes == ["k": "second"] && events[2].metricKind == .gauge)
        #expect(events[1].attributes.isEmpty)

        await forwarder.shutdown()
        #expect(forwarder.statistics.sent == 8 && forwarder.statistics.dropped == 0)
        await listener.shutdown()
    }

    @Test func countersIgnoreWhatSwiftMetricsIgnoresAndNonFiniteReadingsAreCountedAsDropped() async throws {
        let (probe, listener, forwarder, factory) = try await connected()
        let counter = Counter(label: "retries", factory: factory)
        counter.increment(by: -1)
        counter.reset()
        FloatingPointCounter(label: "cost", factory: factory).increment(by: Double.nan)
        Gauge(label: "ratio", factory: factory).record(Double.infinity)
        #expect(forwarder.statistics.dropped == 1)
        counter.increment()
        try await probe.until { $0.events.count == 1 }
        let only = try #require(probe.events.first?.1)
        #expect(only.metricName == "retries" && only.metricKind == .counter && only.metricValue == 1)

        await forwarder.shutdown()
        #expect(forwarder.statistics.sent == 1)
        #expect(probe.events.count == 1)
        await listener.shutdown()
    }
}
