import ErrorStreaming
import ErrorWatchUI
import Foundation

/// A full dashboard for the render benchmarks: `history` events in the Logs ring buffer (its capacity is
/// raised to fit), every pane populated, pinned clock. With `templates` above 1, the messages start with one of
/// that many words, so the Patterns view lists many templates (a template per word and level).
enum RenderFixture {
    static let start = Date(timeIntervalSince1970: 1_773_480_413)

    static func state(width: Int, height: Int, history: Int, templates: Int = 1) -> DashboardState {
        var state = DashboardState(width: width, height: height, now: start, colorDepth: .colors256,
            logCapacity: max(2_000, history))
        let now = start.addingTimeInterval(754)
        let types = ["AuthError", "NetworkError", "ServerError", "SessionError", "SyncError", "DecodingError"]
        let events = (0..<history).map { i in
            DashboardEvent(
                sequence: UInt64(i + 1), timestamp: now.addingTimeInterval(-Double(history - i) * 0.01),
                kind: i % 3 == 0 ? .log : .error, level: ErrorSeverity.allCases[i % 6], source: "api.orders",
                typeName: types[i % types.count],
                message: (templates > 1 ? "\(firstWords[i % templates % firstWords.count]) " : "")
                    + "HTTP 503 Service Unavailable from api.example.com/v2/orders (request \(i)), "
                    + "retrying with backoff",
                code: "N-503", category: .transient, origin: i % 7 == 0 ? .background : .user, attempt: i % 5 + 1)
        }
        var actions: [DashboardAction] = [.eventsReceived(events)]
        actions.append(.metricsSampled(MetricsSnapshot(
            totalErrors: history, errorsByType: types.enumerated().map { .init(name: $1, count: 1_000 - $0 * 100) },
            errorsByCategory: [.transient: 900, .userActionable: 200, .bug: 3],
            errorRatePerSecond: (0..<60).map { ($0 * 37) % 90 },
            series: (0..<12).map { i in
                MetricSeries(
                    name: "http.server.duration{route=/r\(i)}", service: "shop", kind: i % 3 == 0 ? .gauge : .histogram,
                    unit: "ms", count: 1_000 + i, value: 12.5, p50: 12.5, p95: 80, p99: 240,
                    updatedAt: now.addingTimeInterval(-Double(i)))
            },
            droppedEvents: 12, listenerCount: 4)))
        for i in 0..<30 {
            actions.append(.alertReceived(AlertRecord(
                fingerprint: "alert-\(i)", title: "Server unavailable (\(i))", code: "N-503", severity: .error,
                category: .transient, count: 12 + i, firstSeen: now.addingTimeInterval(-Double(i) * 20),
                lastSeen: now.addingTimeInterval(-Double(i) * 5), source: "api", typeName: "ServerError")))
        }
        for name in ["login", "session", "sync"] {
            actions.append(.statusChanged(StatusEntry(service: "shop", name: name, state: "retrying 2/5",
                health: .degraded, detail: "timeout after 10s", changedAt: now.addingTimeInterval(-3))))
        }
        actions.append(.tick(now))
        for action in actions { _ = DashboardReducer.reduce(into: &state, action: action) }
        return state
    }

    /// Words that start the messages of a fixture with several templates.
    static let firstWords = [
        "checkout", "payment", "login", "session", "sync", "upload", "download", "search", "render", "export",
        "import", "billing", "refund", "invoice", "shipping", "cart", "wishlist", "profile", "settings", "avatar",
        "review", "rating", "coupon", "stock", "catalog", "pricing", "tax", "address", "delivery", "tracking",
        "notify", "email", "sms", "push", "webhook", "report", "audit", "backup", "restore", "migrate",
    ]

    /// `state` showing the Patterns view (`v` twice: Alerts, Issues, Patterns), the Errors pane keeping its focus.
    static func patternsView(_ state: DashboardState) -> DashboardState {
        var state = state
        for key: Key in [.character("v"), .character("v")] {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key))
        }
        return state
    }

    /// `state` holding `count` traces of 10 spans across 3 services (one in five failing), showing the Traces view
    /// (`v` three times), as the trace store's budget of 50,000 spans allows at most.
    static func tracesView(_ state: DashboardState, count: Int) -> DashboardState {
        var state = state
        let base = UInt64(start.timeIntervalSince1970) * 1_000_000_000
        for index in 0..<count {
            let begin = base + UInt64(index) * 10_000_000
            let hex = String(index, radix: 16)
            let summary = TraceSummary(
                traceID: String(repeating: "0", count: 32 - hex.count) + hex,
                arrival: UInt64(index + 1), heldFrom: 1, rootName: "POST /checkout/\(index % 40)",
                services: ["frontend", "checkout", "payments"], spanNames: ["POST /checkout", "charge", "SELECT"],
                startUnixNano: begin, endUnixNano: begin + UInt64(1 + index % 997) * 1_000_000, spanCount: 10,
                failedSpans: index % 5 == 0 ? 2 : 0)
            _ = DashboardReducer.reduce(into: &state, action: .traceSummarized(summary))
        }
        for _ in 0..<3 { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v"))) }
        return state
    }

    /// `state` with `query` applied as typed after `/`.
    static func querying(_ state: DashboardState, _ query: String) -> DashboardState {
        var state = state
        for character in "/" + query {
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(character)))
        }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        return state
    }

    /// `state` with the chart of its first series open (Tab twice to Metrics, Enter), a histogram of three lines
    /// over 60 buckets in every window.
    static func chartView(_ state: DashboardState) -> DashboardState {
        var state = state
        var snapshot = state.feeds.metrics
        let series = MetricSeries(
            name: "http.server.duration{http.route=/checkout,status=500}", service: "checkout", kind: .histogram,
            unit: "ms", count: 1_000, value: 12, updatedAt: start)
        snapshot.series.insert(series, at: 0)
        let lines = ["p50", "p95", "p99"].enumerated().map { number, label in
            MetricChart.Line(
                label: label,
                values: (0..<MetricChart.buckets).map { Double(10 * (number + 1) + ($0 * 7) % 13) })
        }
        let plot = MetricChart.Plot(
            end: start, panels: [MetricChart.Panel(title: "percentiles", unit: "ms", lines: lines)])
        snapshot.chart = MetricChart(
            id: series.id, name: series.name, service: series.service, kind: .histogram,
            plots: Dictionary(uniqueKeysWithValues: MetricChart.Window.allCases.map { ($0, plot) }), sampleLimit: 256)
        _ = DashboardReducer.reduce(into: &state, action: .metricsSampled(snapshot))
        for key: Key in [.tab, .tab, .enter] { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key)) }
        return state
    }

    /// `state` with the query `text` applied the way a user does it (`/`, the text, Enter): the reducer is the
    /// only code that changes the state.
    static func querying(_ text: String, in state: DashboardState) -> DashboardState {
        var state = state
        let keys: [Key] = [.character("/")] + text.map { .character($0) } + [.enter]
        for key in keys { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(key)) }
        return state
    }
}
