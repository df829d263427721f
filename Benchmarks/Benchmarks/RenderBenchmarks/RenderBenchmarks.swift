import Benchmark
import ErrorWatchUI
import Foundation

// Run from Benchmarks/: `swift package benchmark --target RenderBenchmarks`.
// Targets (issue 4): a full 200×50 frame under 1 ms at p50; diffing two frames that differ in one pane under
// 0.2 ms; render cost independent of history length (compare the 2k and 100k history benchmarks).
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: 20, maxDuration: .seconds(3),
        maxIterations: 5_000)
    Benchmark.defaultConfiguration = configuration

    let wide = RenderFixture.state(width: 200, height: 50, history: 2_000)
    let wideLongHistory = RenderFixture.state(width: 200, height: 50, history: 100_000)
    let small = RenderFixture.state(width: 80, height: 24, history: 2_000)
    let small100k = RenderFixture.state(width: 80, height: 24, history: 100_000)

    Benchmark("Render 200x50, 2k history") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(wide)) }
    }

    Benchmark("Render 200x50, 100k history") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(wideLongHistory)) }
    }

    // Text filters: the reducer keeps the matching lines as they arrive, so a filtered view costs the rows shown.
    let filteredNoMatch = RenderFixture.querying("DEBUG-NEVER-MATCHES", in: wide)
    let filteredSome = RenderFixture.querying("sessionerror", in: wide)

    Benchmark("Render 200x50, 2k history, text filter matching 1 in 6") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(filteredSome)) }
    }

    Benchmark("Render 200x50, 2k history, text filter matching nothing") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(filteredNoMatch)) }
    }

    // Issue 11: a query over 100k events of history; the reducer keeps the matching lines as they arrive (and
    // rebuilds them once when the query changes), so a frame costs the rows shown. Target: under 2 ms at p50.
    let queriedLongHistory = RenderFixture.querying(
        "level:warning+ -origin:background /unavailable|expired/", in: wideLongHistory)

    Benchmark("Render 200x50, 100k history, query with a regex") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(queriedLongHistory)) }
    }

    Benchmark("Apply a query to 100k events of history (once per query change)") { benchmark in
        for _ in benchmark.scaledIterations {
            let state = RenderFixture.querying("type:ServerError unavailable", in: wideLongHistory)
            blackHole(state.logs.filtered.count)
        }
    }

    // Issue 11: opening the detail view of an issue with 100k occurrences: under 16 ms.
    var issues = wideLongHistory
    _ = DashboardReducer.reduce(
        into: &issues,
        action: .issuesSampled(
            changed: [
                IssueRecord(
                    fingerprint: "ServerError#N-503", typeName: "ServerError", qualifiedTypeName: "Shop.ServerError",
                    code: "N-503", category: .transient, severity: .error, count: 100_000, userCount: 90_000,
                    services: ["shop", "billing"], firstSeen: RenderFixture.start, lastSeen: issues.screen.now,
                    perSecond: (0..<60).map { $0 * 7 % 40 }, perSecondEnd: issues.screen.now,
                    recent: (0..<IssueRecord.occurrenceLimit).map {
                        IssueRecord.Occurrence(
                            sequence: UInt64(100_000 - $0),
                            timestamp: issues.screen.now.addingTimeInterval(-Double($0)),
                            message: "HTTP 503 Service Unavailable from api.example.com/v2/orders (request \($0))",
                            service: "shop")
                    })
            ], evicted: []))
    _ = DashboardReducer.reduce(into: &issues, action: .keyPressed(.character("v")))
    let issuesView = issues

    Benchmark("Open the detail view of an issue with 100k occurrences, and draw it") { benchmark in
        for _ in benchmark.scaledIterations {
            var state = issuesView
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
            blackHole(Dashboard.render(state))
        }
    }

    Benchmark("Render 80x24, 2k history") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(small)) }
    }

    // Issue 35: every pane full, the Patterns view (40 first words, each at three of the six levels: 120
    // templates) and 100k events of history. Targets: 200×50 ≤ 250 µs and 80×24 ≤ 80 µs at p50.
    let widePatterns = RenderFixture.patternsView(
        RenderFixture.state(width: 200, height: 50, history: 100_000, templates: 40))
    let smallPatterns = RenderFixture.patternsView(
        RenderFixture.state(width: 80, height: 24, history: 100_000, templates: 40))

    Benchmark("Render 200x50, 100k history, Patterns view") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(widePatterns)) }
    }

    Benchmark("Render 80x24, 100k history, Patterns view") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(smallPatterns)) }
    }

    // Issue 37: the Traces view with 50,000 traces held (the trace store's span budget allows no more), and a chart.
    let wideTraces = RenderFixture.tracesView(
        RenderFixture.state(width: 200, height: 50, history: 2_000), count: 50_000)
    let smallTraces = RenderFixture.tracesView(
        RenderFixture.state(width: 80, height: 24, history: 2_000), count: 50_000)
    let wideChart = RenderFixture.chartView(RenderFixture.state(width: 200, height: 50, history: 2_000))

    Benchmark("Render 200x50, Traces view, 50k traces held") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(wideTraces)) }
    }

    Benchmark("Render 80x24, Traces view, 50k traces held") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(smallTraces)) }
    }

    // The Traces view with a query (one trace in five failing) over the 50,000 traces: a frame, and a page down.
    let wideFailing = RenderFixture.querying(wideTraces, "status:error")
    Benchmark("Render 200x50, Traces view, 50k traces held, a query") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(wideFailing)) }
    }

    Benchmark("Page down the Traces view with a query, 50k traces held") { benchmark in
        for _ in benchmark.scaledIterations {
            var state = wideFailing
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.pageDown))
            blackHole(state)
        }
    }

    // What applying the query costs once (Enter in the prompt): the Traces view notes the rows that pass it.
    var typed = wideTraces
    for character in "/status:error" {
        _ = DashboardReducer.reduce(into: &typed, action: .keyPressed(.character(character)))
    }
    let typedQuery = typed
    Benchmark("Apply a query with 50k traces held") { benchmark in
        for _ in benchmark.scaledIterations {
            var state = typedQuery
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
            blackHole(state)
        }
    }

    Benchmark("Render 200x50, a histogram's chart") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(wideChart)) }
    }

    Benchmark("Render 80x24, 100k history") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Dashboard.render(small100k)) }
    }

    Benchmark("Render 200x50 into an existing variable") { benchmark in
        var buffer = Dashboard.render(wide)
        for _ in benchmark.scaledIterations {
            Dashboard.render(wide, into: &buffer)
            blackHole(buffer)
        }
    }

    // Two frames that differ in the Status pane only, as after one `.statusChanged`.
    var changed = wide
    _ = DashboardReducer.reduce(
        into: &changed,
        action: .statusChanged(
            StatusEntry(
                service: "shop", name: "sync", state: "synced", health: .ok, detail: "batch 44 ok",
                changedAt: changed.screen.now)))
    let before = Dashboard.render(wide)
    let after = Dashboard.render(changed)

    Benchmark("Diff 200x50 frames, one pane changed") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(after.changes(since: before)) }
    }

    Benchmark("Diff 200x50 identical frames") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(after.changes(since: after)) }
    }

    // Issue 35: the UI thread's share of ingest. A batch of 1,000 lines of 120 templates (Logs keeps them, the
    // Patterns view mines every line) into a full ring; later in time than the ring's lines, as live lines are.
    let widePatterns2k = RenderFixture.state(width: 200, height: 50, history: 2_000, templates: 40)
    Benchmark("Reduce 1k-event batch of 120 templates into a full ring buffer") { benchmark in
        let batch = Array(widePatterns2k.logs.lines.suffix(1_000)).map { event in
            var event = event
            event.timestamp = event.timestamp.addingTimeInterval(60)
            event.sequence += 100_000
            return event
        }
        for _ in benchmark.scaledIterations {
            var state = widePatterns2k
            _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(batch))
            blackHole(state)
        }
    }

    Benchmark("Reduce 1k-event batch into a full ring buffer") { benchmark in
        let batch = Array(wide.logs.lines.prefix(1_000))
        for _ in benchmark.scaledIterations {
            var state = wide
            _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(batch))
            blackHole(state)
        }
    }
}
