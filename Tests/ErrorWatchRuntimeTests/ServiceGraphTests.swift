import ErrorStreaming
import ErrorWatchUI
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchRuntime

/// The service map (issue 37, item 4): a call is a span held with its parent of another service, counted once
/// whichever of the two arrives first; per pair of services, the rate and error share over the last minute and the
/// callee's durations, within a bound.
struct ServiceGraphTests {
    static let start = Date(timeIntervalSince1970: 1_767_258_000)
    static let base: UInt64 = 1_767_258_000_000_000_000

    static func span(
        _ id: UInt64, parent: UInt64? = nil, _ service: String?, kind: TraceSpan.Kind = .internal,
        ms: UInt64 = 10, status: TraceSpan.Status = .unset
    ) -> TraceSpan {
        TraceSpan(
            traceID: "4bf92f3577b34da6a3ce929d0e0e4736", spanID: id, parentSpanID: parent, name: "span \(id)",
            kind: kind, service: service, startUnixNano: base, endUnixNano: base + ms * 1_000_000, status: status)
    }

    @Test func aCallIsCountedOnceWhicheverSpanArrivesFirst() {
        var store = TraceStore()
        // shop's server span calls payments through a client span; payments' server span fails.
        let first = store.insert(
            [Self.span(1, "shop", kind: .server), Self.span(2, parent: 1, "shop", kind: .client)], into: "t")
        #expect(first.calls.isEmpty, "one service: no call")
        let second = store.insert(
            [Self.span(3, parent: 2, "payments", kind: .server, ms: 40, status: .error)], into: "t")
        #expect(second.calls == [ServiceCall(caller: "shop", callee: "payments", failed: true, micros: 40_000)])
        // The child first: inventory's span waits for its parent, counted when the parent comes.
        let early = store.insert([Self.span(5, parent: 4, "inventory", ms: 7)], into: "t")
        #expect(early.calls.isEmpty)
        let late = store.insert([Self.span(4, parent: 1, "shop", kind: .client)], into: "t")
        #expect(late.calls == [ServiceCall(caller: "shop", callee: "inventory", failed: false, micros: 7_000)])
        // Sent again, a span is not a second call; a span without a service is `unknown_service`'s.
        #expect(store.insert([Self.span(3, parent: 2, "payments", kind: .server)], into: "t").calls.isEmpty)
        let anonymous = store.insert([Self.span(6, parent: 5, nil)], into: "t")
        #expect(anonymous.calls.map(\.callee) == ["unknown_service"])
    }

    @Test func aFailedClientSpanFailsTheCall() {
        var store = TraceStore()
        let change = store.insert(
            [Self.span(1, "web", kind: .client, status: .error), Self.span(2, parent: 1, "api", kind: .server)],
            into: "t")
        #expect(change.calls.map(\.failed) == [true])
    }

    @Test func edgesHaveRatesErrorSharesAndPercentiles() throws {
        let clock = Mutex(Self.start)
        let graph = ServiceGraph(now: { clock.withLock { $0 } })
        // 10 s of 20 calls a second from shop to payments, one in four failed, taking 1…20 ms; one call to search.
        for second in 0..<10 {
            clock.withLock { $0 = Self.start.addingTimeInterval(Double(second)) }
            graph.record(
                (0..<20).map { index in
                    ServiceCall(
                        caller: "shop", callee: "payments", failed: index % 4 == 0, micros: UInt64(index + 1) * 1_000)
                })
        }
        graph.record([ServiceCall(caller: "shop", callee: "search", failed: false, micros: nil)])
        let edges = graph.edges()
        #expect(edges.map { "\($0.caller)→\($0.callee)" } == ["shop→payments", "shop→search"])
        let payments = edges[0]
        #expect(payments.calls == 200 && payments.failed == 50)
        #expect(payments.ratePerSecond == 20 && payments.errorRatio == 0.25)
        let p95 = try #require(payments.p95)
        #expect(abs(p95 - 19) <= 0.5)
        #expect(edges[1].p50 == nil, "no durations: unknown, not zero")
    }

    @Test func theNumberOfEdgesIsBounded() {
        let graph = ServiceGraph(now: { Self.start })
        graph.record(
            (0..<(ServiceGraph.maximumEdges + 5)).map {
                ServiceCall(caller: "gateway", callee: "service \($0)", failed: false, micros: 1)
            })
        #expect(graph.edges().count == ServiceGraph.maximumEdges)
        #expect(graph.uncounted == 5)
    }
}
