import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// The Traces view (issue 37, item 1): every trace the store holds, newest first, `O` sorting by duration and
/// errors, the query's trace terms, the selection, rows of evicted traces leaving, `Enter` opening the waterfall,
/// and snapshots at 80×24 and 200×50 (empty, typical, overflowing).
@MainActor
struct TracesViewTests {
    /// The producers' clock: a second before the dashboard's `now` in ``state(width:height:traces:)``.
    static let base = UInt64(fixtureStart.addingTimeInterval(754 - 60).timeIntervalSince1970) * 1_000_000_000

    static func span(
        _ trace: String, _ id: UInt64, parent: UInt64? = nil, _ name: String, service: String = "shop",
        start ms: UInt64, duration: UInt64, status: TraceSpan.Status = .unset
    ) -> TraceSpan {
        TraceSpan(
            traceID: trace, spanID: id, parentSpanID: parent, name: name, kind: parent == nil ? .server : .internal,
            service: service, startUnixNano: base + ms * 1_000_000, endUnixNano: base + (ms + duration) * 1_000_000,
            status: status)
    }

    /// The row of `spans`, as the trace store sums them up.
    static func summary(_ traceID: String, arrival: UInt64, heldFrom: UInt64 = 1, _ spans: [TraceSpan]) -> TraceSummary
    {
        var summary = TraceSummary(traceID: traceID, arrival: arrival, heldFrom: heldFrom)
        for span in spans { summary.add(span) }
        return summary
    }

    nonisolated static let checkout = "4bf92f3577b34da6a3ce929d0e0e4736"
    nonisolated static let search = "a3ce929d0e0e47364bf92f3577b34da6"
    nonisolated static let orphan = "0e0e47364bf92f3577b34da6a3ce929d"

    /// Three traces: a slow failing checkout across two services (started first), a fast successful search, and
    /// one whose root never came (started last).
    static let rows: [TraceSummary] = [
        summary(
            checkout, arrival: 1,
            [
                span(checkout, 1, "POST /checkout", start: 0, duration: 1_250, status: .error),
                span(
                    checkout, 2, parent: 1, "charge card", service: "payments", start: 100, duration: 900,
                    status: .error),
                span(checkout, 3, parent: 1, "load cart", start: 20, duration: 30),
            ]),
        summary(
            search, arrival: 2,
            [
                span(search, 1, "GET /search", service: "catalog", start: 2_000, duration: 45, status: .ok),
                span(search, 2, parent: 1, "SELECT products", service: "catalog", start: 2_010, duration: 30),
            ]),
        summary(orphan, arrival: 3, [span(orphan, 7, parent: 99, "late callback", start: 5_000, duration: 300)]),
    ]

    static func state(width: Int = 120, height: Int = 40, traces: [TraceSummary] = rows) -> DashboardState {
        var state = DashboardState.sample(width: width, height: height)
        for trace in traces { _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(trace)) }
        for _ in 0..<3 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v"))) }
        return state
    }

    static func shown(_ state: DashboardState) -> [String] { state.traces.visible(state.filter).map(\.traceID) }

    static func query(_ text: String, _ state: inout DashboardState) {
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        for character in text { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(character))) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
    }

    @Test func theFourthViewListsEveryTraceNewestFirst() {
        let state = Self.state()
        #expect(state.errors.view == .traces)
        #expect(Self.shown(state) == [Self.orphan, Self.search, Self.checkout])
        let checkout = state.traces.rows[Self.checkout]
        #expect(checkout?.durationNanos == 1_250_000_000)
        #expect(checkout?.services == ["shop", "payments"])
        #expect(checkout?.spanCount == 3 && checkout?.failedSpans == 2)
        #expect(checkout?.rootName == "POST /checkout" && checkout?.rootIsOrphan == false)
        let orphan = state.traces.rows[Self.orphan]
        #expect(orphan?.rootName == "late callback" && orphan?.rootIsOrphan == true)
    }

    @Test func aRootArrivingLaterReplacesTheOrphanMark() {
        var summary = Self.summary("t", arrival: 1, [Self.span("t", 2, parent: 1, "child", start: 10, duration: 5)])
        #expect(summary.rootIsOrphan && summary.rootName == "child")
        summary.add(Self.span("t", 1, "root", start: 0, duration: 50))
        #expect(!summary.rootIsOrphan && summary.rootName == "root")
        #expect(summary.durationNanos == 50_000_000 && summary.spanCount == 2)
    }

    @Test func oSortsByDurationThenErrorsThenTimeAgain() {
        var state = Self.state()
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("O")))
        #expect(state.traces.sortOrder == .duration)
        #expect(state.screen.statusMessage == "traces by duration")
        #expect(Self.shown(state) == [Self.checkout, Self.orphan, Self.search])
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("O")))
        #expect(state.traces.sortOrder == .errors)
        #expect(Self.shown(state) == [Self.checkout, Self.orphan, Self.search])
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("O")))
        #expect(state.traces.sortOrder == .time)
        #expect(Self.shown(state) == [Self.orphan, Self.search, Self.checkout])
        // The Issues view's order did not move.
        #expect(state.errors.issueOrder == .lastSeen && state.errors.view == .traces)
    }

    @Test(arguments: [
        ("service:payments", [checkout]),
        ("service:catalog", [search]),
        ("SELECT", [search]),
        ("callback", [orphan]),
        ("status:error", [checkout]),
        ("status:ok", [orphan, search]),
        ("-status:error", [orphan, search]),
        ("duration>200ms", [orphan, checkout]),
        ("duration>=300ms", [orphan, checkout]),
        ("duration<300ms", [search]),
        ("duration<=1.25s", [orphan, search, checkout]),
        ("trace:4BF9", [checkout]),
        ("trace:a3ce duration<1s", [search]),
        ("status:error service:catalog", []),
    ])
    func theQueryNarrowsTheList(_ text: String, _ expected: [String]) {
        var state = Self.state()
        Self.query(text, &state)
        #expect(state.filter.error == nil)
        #expect(Self.shown(state) == expected)
    }

    @Test func traceTermsLeaveOtherRowsAloneAndBadValuesAreSaid() throws {
        // `status:` and `duration` say nothing about a log line; `trace:` needs the line's trace.
        let line = DashboardEvent(
            sequence: 1, timestamp: fixtureStart, kind: .log, level: .info, source: "app", typeName: "",
            message: "hello", traceID: Self.checkout)
        for (text, passes) in [
            ("status:error", true), ("duration>1s", true), ("trace:4bf9", true), ("trace:ffff", false),
        ] {
            #expect(try Query.parse(text).get().matches(line.querySubject) == passes, "\(text)")
        }
        for (text, message) in [
            ("duration>fast", "unreadable duration \"fast\" (a number and ns, us, ms, s, m or h: 200ms)"),
            ("duration>", "empty value for \"duration>\""),
            ("status:maybe", "unknown status \"maybe\" (status: error, ok)"),
            ("duration:1s", "duration takes a comparison: duration>200ms, duration<1s"),
        ] {
            guard case .failure(let error) = Query.parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(error.message == message)
        }
        #expect(QueryComparison.nanos("850us") == 850_000 && QueryComparison.nanos("2m") == 120_000_000_000)
        #expect(QueryComparison.nanos("1.5s") == 1_500_000_000 && QueryComparison.nanos("12") == nil)
    }

    @Test func theTitleSaysNOfM() {
        var state = Self.state(width: 200, height: 50)
        Self.query("status:ok", &state)
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(screen.contains("2 of 3 traces"))
    }

    @Test func jAndKMoveTheSelectionAndEnterOpensTheWaterfall() {
        var state = Self.state()
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j")))
        #expect(state.traces.selectedID == Self.search)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("j")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("k")))
        #expect(state.traces.selectedID == Self.search)
        let effects = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.detail.target == .trace(Self.search))
        #expect(effects == [.traceOpened(Self.search)])
        var lines = DetailView.lines(of: .trace(Self.search), in: state, width: 100).map(Self.text)
        #expect(lines.contains { $0.contains("Asked the trace store for its spans") })
        let spans = [
            Self.span(Self.search, 1, "GET /search", service: "catalog", start: 2_000, duration: 45, status: .ok),
            Self.span(Self.search, 2, parent: 1, "SELECT products", service: "catalog", start: 2_010, duration: 30),
        ]
        _ = DashboardReducer.reduce(
            into: &state, action: .traceChanged(TraceSnapshot(traceID: Self.search, spans: spans)))
        lines = DetailView.lines(of: .trace(Self.search), in: state, width: 100).map(Self.text)
        #expect(lines.contains { $0.contains("GET /search") && $0.contains("45ms") })
        #expect(lines.contains { $0.contains("└ SELECT products") })
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.escape))
        #expect(state.detail.target == nil && state.errors.view == .traces)
    }

    @Test func rowsOfEvictedTracesLeave() {
        var state = Self.state()
        var late = Self.summary(
            "ffffffffffffffffffffffffffffffff", arrival: 9, [Self.span("f", 1, "GET /late", start: 9_000, duration: 5)])
        // The store now holds traces from arrival 3 on: the first two were evicted.
        late.heldFrom = 3
        _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(late))
        #expect(Set(state.traces.rows.keys) == [Self.orphan, late.traceID])
        #expect(Self.shown(state) == [late.traceID, Self.orphan])
    }

    @Test func rowsStayBoundedWhateverArrives() {
        var traces = TracesState()
        for index in 0..<(TracesState.rowCapacity + 500) {
            let id = String(index)
            let spans = [Self.span(id, 1, "x", start: 0, duration: 1)]
            _ = traces.reduce(.summarized(Self.summary(id, arrival: UInt64(index + 1), spans)))
        }
        #expect(traces.rows.count == TracesState.rowCapacity)
        #expect(traces.rows["0"] == nil && traces.rows[String(TracesState.rowCapacity + 499)] != nil)
    }

    static func text(_ line: DetailView.Line) -> String { line.segments.map(\.text).joined() }

    // MARK: Snapshots

    /// Many traces: more than the pane shows, of every kind.
    static func many(_ count: Int) -> [TraceSummary] {
        (0..<count).map { index in
            let id = String(format: "%08x", index * 7_919) + String(repeating: "0", count: 24)
            let failed = index % 5 == 0
            var spans = [
                span(
                    id, 1, index % 3 == 0 ? "POST /checkout" : "GET /products/{id}", service: "web",
                    start: UInt64(index) * 400, duration: UInt64(20 + (index * 37) % 900),
                    status: failed ? .error : .ok)
            ]
            for child in 0..<(index % 4) {
                spans.append(
                    span(
                        id, UInt64(child + 2), parent: 1, "query \(child)", service: child % 2 == 0 ? "db" : "cache",
                        start: UInt64(index) * 400 + 5, duration: 10))
            }
            return summary(id, arrival: UInt64(index + 1), spans)
        }
    }

    @Test(arguments: [(80, 24), (200, 50)])
    func snapshots(_ width: Int, _ height: Int) {
        let size = "\(width)x\(height)"
        let empty = Self.state(width: width, height: height, traces: [])
        assertSnapshot(of: Dashboard.render(empty), as: .screen, named: "empty-\(size)")
        let typical = Self.state(width: width, height: height)
        assertSnapshot(of: Dashboard.render(typical), as: .screen, named: "typical-\(size)")
        var overflowing = Self.state(width: width, height: height, traces: Self.many(120))
        for _ in 0..<30 { _ = DashboardReducer.reduce(into: &overflowing, action: .keyPressed(.character("j"))) }
        assertSnapshot(of: Dashboard.render(overflowing), as: .screen, named: "overflowing-\(size)")
    }

    @Test(arguments: [(80, 24), (200, 50)])
    func waterfallSnapshots(_ width: Int, _ height: Int) {
        var state = Self.state(width: width, height: height)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("G")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        let spans = [
            Self.span(Self.checkout, 1, "POST /checkout", start: 0, duration: 1_250, status: .error),
            Self.span(
                Self.checkout, 2, parent: 1, "charge card", service: "payments", start: 100, duration: 900,
                status: .error),
            Self.span(Self.checkout, 3, parent: 1, "load cart", start: 20, duration: 30),
        ]
        _ = DashboardReducer.reduce(
            into: &state, action: .traceChanged(TraceSnapshot(traceID: Self.checkout, spans: spans)))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "waterfall-\(width)x\(height)")
    }
}

/// A frame of the Traces view puts in order only the rows it shows (issue 37, item 5): the same rows, in the same
/// order, as sorting them all, in every order and with a query.
@MainActor
struct TracesPageTests {
    @Test func theLeadingRowsAreTheSortedOnesAndTheCountAndPlaceAgree() {
        var generator = SeededGenerator(seed: 37)
        var state = DashboardState.sample()
        for index in 0..<600 {
            let start = UInt64.random(in: 0...40, using: &generator) * 1_000_000
            var summary = TraceSummary(
                traceID: String(format: "%032x", index), arrival: UInt64(index + 1), heldFrom: 1,
                rootName: index % 3 == 0 ? "POST /checkout" : "GET /health", services: ["shop"],
                spanNames: [index % 3 == 0 ? "POST /checkout" : "GET /health"],
                startUnixNano: index % 50 == 0 ? 0 : 1_000_000_000 + start,
                spanCount: 3, failedSpans: Int.random(in: 0...2, using: &generator))
            if index % 7 != 0 { summary.endUnixNano = summary.startUnixNano + UInt64(index % 13) * 1_000_000 }
            _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(summary))
        }
        var filters = [FilterState()]
        var querying = FilterState()
        _ = querying.reduce(.submitted(Query.parse("checkout")))
        filters.append(querying)
        for order in 0..<3 {
            for filter in filters {
                let all = state.traces.visible(filter)
                for limit in [0, 1, 7, 150, 600, 700] {
                    #expect(state.traces.leading(limit, filter).map(\.traceID) == all.prefix(limit).map(\.traceID))
                }
                #expect(state.traces.count(filter).count == all.count)
                #expect(state.traces.count(filter).selected == nil)
            }
            _ = state.traces.reduce(.orderCycled)
            #expect(state.traces.sortOrder != TraceOrder.allCases[order])
        }
        // The store evicted the oldest 300: their rows leave, and the order of the rest is kept right.
        var late = TraceSummary(traceID: String(format: "%032x", 600), arrival: 601, heldFrom: 301, rootName: "late")
        late.startUnixNano = 1_000_000_000
        _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(late))
        #expect(state.traces.rows.count == 301)
        for _ in 0..<3 {
            let all = state.traces.visible(FilterState())
            #expect(state.traces.leading(400, FilterState()).map(\.traceID) == all.map(\.traceID))
            _ = state.traces.reduce(.orderCycled)
        }
        _ = state.traces.reduce(.selectionMoved(.down, page: 10, filter: FilterState()))
        _ = state.traces.reduce(.selectionMoved(.pageDown, page: 10, filter: FilterState()))
        let all = state.traces.visible(FilterState())
        #expect(state.traces.selectedID == all[11].traceID)
        #expect(state.traces.count(FilterState()).selected == 11)
    }

    /// With the dashboard's own query in force the view orders only the rows it noted as passing: the same rows,
    /// count and place as matching and sorting every row, while rows arrive, change (in and out of the query),
    /// leave, and the order and the query change.
    @Test func theRowsNotedAsPassingTheQueryAreTheMatchingOnes() {
        var generator = SeededGenerator(seed: 91)
        var state = DashboardState.sample()
        func summary(_ index: Int, checkout: Bool, arrival: UInt64, heldFrom: UInt64 = 1) -> TraceSummary {
            var row = TraceSummary(
                traceID: String(format: "%032x", index), arrival: arrival, heldFrom: heldFrom,
                rootName: checkout ? "POST /checkout" : "GET /health", services: ["shop"],
                spanNames: [checkout ? "POST /checkout" : "GET /health"],
                startUnixNano: 1_000_000_000 + UInt64.random(in: 0...40, using: &generator) * 1_000_000, spanCount: 2,
                failedSpans: Int.random(in: 0...1, using: &generator))
            row.endUnixNano = row.startUnixNano + UInt64(index % 11) * 1_000_000
            return row
        }
        var arrival: UInt64 = 0
        func arrive(_ index: Int, checkout: Bool, heldFrom: UInt64 = 1) {
            arrival += 1
            let row = summary(index, checkout: checkout, arrival: arrival, heldFrom: heldFrom)
            _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(row))
        }
        func check(_ when: String) {
            var matching = FilterState()
            _ = matching.reduce(.submitted(Query.parse(state.filter.query.text)))
            let all = state.traces.visible(state.filter)
            #expect(all.map(\.traceID) == state.traces.visible(matching).map(\.traceID))
            #expect(all.allSatisfy { state.filter.matches($0) }, "\(when)")
            for limit in [1, 9, 120, 500] {
                #expect(
                    state.traces.leading(limit, state.filter).map(\.traceID) == all.prefix(limit).map(\.traceID),
                    "\(when), \(limit) rows")
            }
            #expect(state.traces.count(state.filter).count == all.count, "\(when)")
        }
        for index in 0..<300 { arrive(index, checkout: index % 3 == 0) }
        for character in "/checkout" { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(character))) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.filter.query.text == "checkout")
        #expect(state.traces.matchedQuery == state.filter.query, "the root handed the query over")
        check("query applied")
        for index in 300..<400 { arrive(index, checkout: index % 2 == 0) }
        check("rows arrived")
        // Rows change: some leave the query, some join it.
        for index in stride(from: 0, to: 300, by: 5) { arrive(index, checkout: index % 3 != 0) }
        check("rows changed")
        _ = state.traces.reduce(.selectionMoved(.down, page: 10, filter: state.filter))
        let selected = state.traces.count(state.filter).selected
        #expect(selected == 1)
        #expect(state.traces.selectedID == state.traces.visible(state.filter)[1].traceID)
        // The store evicts the first 150 arrivals.
        arrive(400, checkout: true, heldFrom: 151)
        check("rows left")
        _ = state.traces.reduce(.orderCycled)
        check("order changed")
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("/")))
        for _ in "checkout" { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.backspace)) }
        for character in "health" { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(character))) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.filter.query.text == "health")
        #expect(state.traces.matchedQuery == state.filter.query)
        check("query changed")
        #expect(state.traces.count(state.filter).count > 0)
    }
}

/// The rows a frame draws stay those of sorting every row, whatever arrives, changes, leaves or re-sorts
/// (``TracesState`` keeps the first rows in order as they come; issue 37, item 5).
@MainActor
struct TracesOrderPropertyTests {
    @Test func theKeptFirstRowsAreAlwaysTheSortedOnes() {
        var generator = SeededGenerator(seed: 4_242)
        var traces = TracesState()
        var arrival: UInt64 = 0
        var heldFrom: UInt64 = 1
        var selected: String?
        for step in 0..<3_000 {
            let choice = Int.random(in: 0..<100, using: &generator)
            var summary: TraceSummary
            if choice < 55 || traces.rows.isEmpty {
                arrival += 1
                summary = TraceSummary(
                    traceID: String(format: "%032x", arrival), arrival: arrival, heldFrom: heldFrom, rootName: "r")
            } else if choice < 90 {
                // A row changes: later spans move its start, end and failures.
                let id = traces.rows.keys.sorted()[Int.random(in: 0..<traces.rows.count, using: &generator)]
                summary = traces.rows[id]!
                summary.heldFrom = heldFrom
                selected = id
            } else if choice < 97 {
                // The store evicted some of the oldest.
                heldFrom = min(arrival, heldFrom + UInt64.random(in: 1...40, using: &generator))
                arrival += 1
                summary = TraceSummary(
                    traceID: String(format: "%032x", arrival), arrival: arrival, heldFrom: heldFrom, rootName: "r")
            } else {
                _ = traces.reduce(.orderCycled)
                continue
            }
            summary.startUnixNano = UInt64.random(in: 0...300, using: &generator) * 1_000
            if Bool.random(using: &generator) {
                summary.endUnixNano = summary.startUnixNano + UInt64.random(in: 0...50, using: &generator) * 1_000
            }
            summary.failedSpans = Int.random(in: 0...3, using: &generator)
            _ = traces.reduce(.summarized(summary))
            if let selected, traces.rows[selected] != nil, step % 10 == 0 {
                _ = traces.reduce(.selectionMoved(.down, page: 5, filter: FilterState()))
            }
            guard step % 25 == 0 else { continue }
            let all = traces.visible(FilterState()).map(\.traceID)
            for limit in [1, 12, 200, 400] {
                #expect(traces.leading(limit, FilterState()).map(\.traceID) == Array(all.prefix(limit)), "step \(step)")
            }
            let (count, place) = traces.count(FilterState())
            #expect(count == all.count)
            #expect(place == traces.selectedID.flatMap { all.firstIndex(of: $0) }, "step \(step)")
        }
    }
}
