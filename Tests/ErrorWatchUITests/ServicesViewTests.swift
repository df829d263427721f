import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// The service map (issue 37, item 4): the fifth view `v` reaches lists which service calls which with rate, error
/// share and percentiles; the query narrows it; `j`/`k` select an edge and `Enter` opens the Traces view of its two
/// services; snapshots at 80×24 and 200×50 (empty, typical, overflowing).
@MainActor
struct ServicesViewTests {
    static func edge(
        _ caller: String, _ callee: String, rate: Double, error: Double = 0, p95: Double? = 12, calls: Int = 1_000
    ) -> ServiceEdge {
        ServiceEdge(
            caller: caller, callee: callee, calls: calls, failed: Int(Double(calls) * error), ratePerSecond: rate,
            errorRatio: error, p50: p95.map { $0 / 3 }, p95: p95, p99: p95.map { $0 * 2 },
            updatedAt: fixtureStart.addingTimeInterval(750))
    }

    static let typical: [ServiceEdge] = [
        edge("checkout", "inventory", rate: 18.5, p95: 9.5),
        edge("checkout", "payments", rate: 12.25, error: 0.25, p95: 412, calls: 7_412),
        edge("frontend", "checkout", rate: 12.25, error: 0.08, p95: 520, calls: 7_412),
        edge("frontend", "search", rate: 40, p95: nil, calls: 24_000),
        edge("payments", "card-gateway.eu-west-1.internal", rate: 9.1, error: 0.31, p95: 388),
    ]

    func state(width: Int = 120, height: Int = 40, edges: [ServiceEdge] = typical) -> DashboardState {
        var state = DashboardState.sample(width: width, height: height)
        var snapshot = state.feeds.metrics
        snapshot.serviceEdges = edges
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        for _ in 0..<4 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v"))) }
        return state
    }

    func press(_ state: inout DashboardState, _ keys: Key...) {
        for key in keys { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key)) }
    }

    func query(_ text: String, _ state: inout DashboardState) {
        press(&state, .character("/"))
        for character in text { press(&state, .character(character)) }
        press(&state, .enter)
    }

    @Test func theFifthViewListsEveryEdge() {
        let state = state()
        #expect(state.errors.view == .services)
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(text.contains("5 edges"))
        #expect(text.contains("checkout → payments"))
        #expect(text.contains("12.3/s"))
        #expect(text.contains("err 25.0%"))
    }

    @Test func theQueryNarrowsTheMapToEitherEnd() {
        var state = state()
        query("service:payments", &state)
        #expect(state.feeds.visibleEdges(state.filter).map(\.id) == [Self.typical[1].id, Self.typical[4].id])
        #expect(Dashboard.render(state).textLines().joined().contains("2 of 5 edges"))
    }

    @Test func enterOpensTheTracesOfBothServices() {
        var state = state()
        press(&state, .character("j"))
        #expect(state.feeds.selectedEdge == Self.typical[1].id)
        press(&state, .enter)
        #expect(state.errors.view == .traces)
        #expect(state.filter.query.text == #"service:"checkout" service:"payments""#)
        #expect(state.detail.target == nil)
    }

    @Test(arguments: [(80, 24), (200, 50)])
    func snapshots(_ width: Int, _ height: Int) {
        let many = (0..<60).map { Self.edge("gateway", "service-\($0)", rate: Double($0), error: $0 % 7 == 0 ? 0.5 : 0) }
        for (name, edges) in [("empty", [ServiceEdge]()), ("typical", Self.typical), ("overflowing", many)] {
            assertSnapshot(
                of: Dashboard.render(state(width: width, height: height, edges: edges)), as: .screen,
                named: "\(name)-\(width)x\(height)")
        }
    }
}
