import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchRuntime

/// Request metrics from spans (what the Collector's spanmetrics connector computes): per service and server or
/// consumer span name, the rate and error share over the last minute and the duration's percentiles.
struct RequestMetricsTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)

    static func span(_ name: String, kind: TraceSpan.Kind = .server, ms: UInt64, failed: Bool = false) -> TraceSpan {
        TraceSpan(
            traceID: "4bf92f3577b34da6a3ce929d0e0e4736", spanID: 1, name: name, kind: kind, service: "shop",
            startUnixNano: 1_000_000_000, endUnixNano: 1_000_000_000 + ms * 1_000_000, status: failed ? .error : .unset)
    }

    @Test func serverSpansBecomeRatesErrorSharesAndPercentiles() throws {
        let clock = Mutex(Self.start)
        let metrics = RequestMetrics(now: { clock.withLock { $0 } })
        // 10 s of traffic: 20 requests a second, one in ten failed, taking 10…200 ms.
        for second in 0..<10 {
            clock.withLock { $0 = Self.start.addingTimeInterval(Double(second)) }
            var spans: [TraceSpan] = []
            for index in 0..<20 {
                let ms = UInt64(10 * (index + 1))
                spans.append(Self.span("POST /checkout", ms: ms, failed: index % 10 == 0))
            }
            spans.append(Self.span("charge", kind: .client, ms: 5))
            spans.append(Self.span("GET /health", kind: .consumer, ms: 1))
            metrics.record(spans)
        }
        let series = metrics.series()
        #expect(series.map(\.name).sorted() == ["GET /health", "POST /checkout"], "client spans are not requests")
        let checkout = try #require(series.first { $0.name == "POST /checkout" })
        #expect(checkout.kind == .requests && checkout.service == "shop" && checkout.unit == "ms")
        #expect(checkout.count == 200 && checkout.value == 20)
        #expect(checkout.ratePerSecond == 20)
        #expect(checkout.errorRatio == 0.1)
        let p50 = try #require(checkout.p50)
        let p99 = try #require(checkout.p99)
        #expect(abs(p50 - 100) <= 2 && abs(p99 - 200) <= 2)
        // A minute later with no traffic: the window is empty, the totals and percentiles stay.
        clock.withLock { $0 = Self.start.addingTimeInterval(120) }
        let later = try #require(metrics.series().first { $0.name == "POST /checkout" })
        #expect(later.ratePerSecond == 0 && later.errorRatio == 0 && later.count == 200)
    }

    @Test func theNumberOfSeriesIsBounded() {
        let metrics = RequestMetrics(now: { Self.start })
        metrics.record((0..<(RequestMetrics.maximumSeries + 10)).map { Self.span("route \($0)", ms: 1) })
        #expect(metrics.series().count == RequestMetrics.maximumSeries)
        #expect(metrics.uncounted == 10)
    }
}
