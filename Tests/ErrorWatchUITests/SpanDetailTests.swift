import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Any trace, any span (issue 37, item 2): in a trace's waterfall `j`/`k` select a span and `Enter` opens it; the
/// span's view lists its fields and the log lines and errors of that span; an error's detail opens its span.
@MainActor
struct SpanDetailTests {
    static let trace = TracesViewTests.checkout

    static var spans: [TraceSpan] {
        [
            TracesViewTests.span(trace, 1, "POST /checkout", start: 0, duration: 1_250, status: .error),
            TracesViewTests.span(
                trace, 2, parent: 1, "charge card", service: "payments", start: 100, duration: 900, status: .error),
            TracesViewTests.span(trace, 3, parent: 1, "load cart", start: 20, duration: 30),
            TracesViewTests.span(trace, 4, parent: 77, "late callback", start: 1_300, duration: 5),
        ]
    }

    /// The Traces view with the checkout trace open, its spans received, and a log line and an error of span 2.
    static func opened(width: Int = 120, height: Int = 40) -> DashboardState {
        var state = TracesViewTests.state(width: width, height: height)
        let now = state.screen.now
        _ = DashboardReducer.reduce(
            into: &state,
            action: .eventsReceived([
                DashboardEvent(
                    sequence: 9_001, timestamp: now.addingTimeInterval(-2), kind: .log, level: .info,
                    source: "payments", typeName: "", message: "charging card ending 4242", service: "payments",
                    traceID: trace, spanID: TraceSpan.hex(2)),
                DashboardEvent(
                    sequence: 9_002, timestamp: now.addingTimeInterval(-1), kind: .error, level: .error,
                    source: "payments", typeName: "CardDeclined", message: "card 4242 declined", service: "payments",
                    traceID: trace, spanID: TraceSpan.hex(2)),
                DashboardEvent(
                    sequence: 9_003, timestamp: now.addingTimeInterval(-1), kind: .log, level: .info,
                    source: "shop", typeName: "", message: "cart loaded", service: "shop",
                    traceID: trace, spanID: TraceSpan.hex(3)),
            ]))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("G")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        _ = DashboardReducer.reduce(
            into: &state, action: .traceChanged(TraceSnapshot(traceID: trace, spans: spans)))
        return state
    }

    static func text(_ state: DashboardState) -> [String] {
        guard let target = state.detail.target else { return [] }
        return DetailView.lines(of: target, in: state, width: 110).map(TracesViewTests.text)
    }

    @Test func jAndKSelectASpanAndEnterOpensIt() {
        var state = Self.opened()
        #expect(state.detail.target == .trace(Self.trace))
        // The waterfall's rows: the root, its children by start (load cart, charge card), then the orphan.
        #expect(state.traceRows(of: Self.trace).map(\.span.spanID) == [1, 3, 2, 4])
        for _ in 0..<2 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j"))) }
        #expect(state.detail.span == 2)
        for _ in 0..<5 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j"))) }
        #expect(state.detail.span == 3, "stays on the last span")
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("k")))
        #expect(Self.text(state).contains { $0.contains("charge card") }, "the waterfall is drawn")
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .span(traceID: Self.trace, spanID: 2))
        let lines = Self.text(state)
        for expected in [
            "charge card", "internal", "payments", "error", "900ms", TraceSpan.hex(2), TraceSpan.hex(1),
            "card 4242 declined", "charging card ending 4242",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected)")
        }
        #expect(!lines.contains { $0.contains("cart loaded") }, "another span's line is not listed")
        // Its error opens from there; Esc goes back to the span, then to the waterfall.
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .event(9_002))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        #expect(state.detail.target == .trace(Self.trace))
    }

    @Test func anOrphanSaysItsParentWasNotReceived() {
        var state = Self.opened()
        for _ in 0..<3 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j"))) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .span(traceID: Self.trace, spanID: 4))
        #expect(Self.text(state).contains { $0.contains(TraceSpan.hex(77) + " (not received)") })
    }

    @Test func anErrorsDetailOpensItsSpan() {
        var state = Self.opened()
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        _ = state.detail.reduce(.opened(.event(9_002)))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .span(traceID: Self.trace, spanID: 2))
    }

    @Test(arguments: [(80, 24), (200, 50)])
    func spanSnapshots(_ width: Int, _ height: Int) {
        var state = Self.opened(width: width, height: height)
        for _ in 0..<2 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j"))) }
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "selected-\(width)x\(height)")
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "span-\(width)x\(height)")
    }

    @Test func aSpansAttributesEventsAndLinksAreListed() {
        var state = Self.opened()
        var spans = Self.spans
        spans[1].attributes = ["http.route": "/charge", "payment.provider": "acme"]
        spans[1].events = [
            TraceSpan.Event(
                name: "exception", timeUnixNano: spans[1].startUnixNano + 5_000_000,
                attributes: [
                    "exception.type": "CardDeclined", "exception.stacktrace": "at charge (pay.swift:12)\nat main",
                ]),
            TraceSpan.Event(name: "retry", timeUnixNano: spans[1].startUnixNano + 7_000_000, attributes: ["n": "2"]),
        ]
        spans[1].links = [TraceSpan.Link(traceID: String(repeating: "ee", count: 16), spanID: 9)]
        _ = DashboardReducer.reduce(
            into: &state, action: .traceChanged(TraceSnapshot(traceID: Self.trace, spans: spans)))
        _ = state.detail.reduce(.opened(.span(traceID: Self.trace, spanID: 2)))
        let lines = Self.text(state)
        for expected in [
            "Attributes", "http.route", "/charge", "payment.provider", "Events", "+0.005s exception", "CardDeclined",
            "at charge (pay.swift:12)", "at main", "+0.007s retry", "Links",
            "trace \(String(repeating: "ee", count: 16)) span \(TraceSpan.hex(9))",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected)")
        }
        #expect(!lines.contains { $0.contains("exception.stacktrace") }, "the stack trace is drawn as lines")
    }
}
