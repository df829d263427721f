import ErrorStreaming
import Foundation

@testable import ErrorWatchUI

/// Pinned time for every fixture: 2026-03-14 09:26:53 UTC.
let fixtureStart = Date(timeIntervalSince1970: 1_773_480_413)

/// One event template of the simulated app: what a user of errorwatch would see while breaking the demo.
struct EventTemplate {
    var kind: DashboardEvent.Kind
    var level: ErrorSeverity
    var source: String
    var typeName: String
    var message: String
    var userMessage: String?
    var code: ErrorCode?
    var category: ErrorCategory?
    var origin: ErrorOrigin = .user
    var attempt: Int?
}

let eventTemplates: [EventTemplate] = [
    EventTemplate(
        kind: .log, level: .info, source: "auth.login", typeName: "auth",
        message:
            "logging in as ada@example.com"),
    EventTemplate(
        kind: .error, level: .warning, source: "auth.login", typeName: "AuthError",
        message:
            "invalid credentials for ada@example.com (HTTP 401)", userMessage: "Wrong email or password", code: "A-101",
        category: .userActionable, attempt: 1),
    EventTemplate(
        kind: .error, level: .error, source: "net.http", typeName: "NetworkError",
        message:
            "The Internet connection appears to be offline (URLError -1009)", userMessage: "You're offline",
        code: "N-1009", category: .transient, attempt: 2),
    EventTemplate(
        kind: .log, level: .notice, source: "net.monitor", typeName: "network",
        message:
            "path unsatisfied: no usable interface"),
    EventTemplate(
        kind: .error, level: .error, source: "api.orders", typeName: "ServerError",
        message:
            "HTTP 503 Service Unavailable from api.example.com/v2/orders", userMessage: "Server unavailable",
        code: "N-503", category: .transient),
    EventTemplate(
        kind: .error, level: .warning, source: "session.refresh", typeName: "SessionError",
        message:
            "access token expired at 09:38:01Z (HTTP 401)", userMessage: "Session expired, please log in again",
        code: "A-401", category: .userActionable),
    EventTemplate(
        kind: .error, level: .error, source: "sync.batch", typeName: "SyncError",
        message:
            "sync batch 42 failed: timeout after 10s", code: "T-408", category: .transient, origin: .background,
        attempt: 3),
    EventTemplate(
        kind: .log, level: .info, source: "sync.batch", typeName: "sync",
        message:
            "sync batch 43 ok (128 items in 412ms)"),
    EventTemplate(
        kind: .error, level: .critical, source: "orders.decode", typeName: "DecodingError",
        message:
            "keyNotFound(\"createdAt\") in Order[3]: impossible branch, bug report B-17 filed",
        userMessage: "Something went wrong. We've been notified.", code: "B-17", category: .bug),
    EventTemplate(
        kind: .log, level: .debug, source: "auth.session", typeName: "auth",
        message:
            "token refresh scheduled in 300s"),
]

extension DashboardEvent {
    /// The `index`-th event of the fixture stream, one every 1.5 s before `now`'s end.
    static func fixture(_ index: Int, at time: Date) -> DashboardEvent {
        let t = eventTemplates[index % eventTemplates.count]
        return DashboardEvent(
            sequence: UInt64(index + 1), timestamp: time, kind: t.kind, level: t.level, source: t.source,
            typeName: t.typeName, message: t.message, userMessage: t.userMessage, code: t.code,
            category: t.category, origin: t.origin, attempt: t.attempt)
    }
}

extension MetricsSnapshot {
    static let fixture = MetricsSnapshot(
        totalErrors: 1_284,
        errorsByType: [
            .init(name: "ServerError", count: 612), .init(name: "NetworkError", count: 388),
            .init(name: "AuthError", count: 173), .init(name: "SyncError", count: 97),
            .init(name: "SessionError", count: 13), .init(name: "DecodingError", count: 1),
        ],
        errorsByCategory: [.transient: 1_097, .userActionable: 186, .bug: 1],
        errorRatePerSecond: (0..<60).map { second in
            second < 38
                ? [0, 1, 0, 2, 1, 0, 3, 1][second % 8] : (second < 48 ? 40 + (second - 38) * 6 : 12 - (second - 48))
        },
        series: MetricSeries.fixtures, droppedEvents: 0, listenerCount: 4)
}

extension MetricSeries {
    /// What a demo-like app records: a latency histogram, counters with rates, a gauge.
    static let fixtures: [MetricSeries] = [
        MetricSeries(
            name: "auth.login.duration", kind: .histogram, unit: "ns", count: 19, value: 151_000_000,
            p50: 142_000_000, p95: 611_000_000, p99: 640_000_000, updatedAt: fixtureStart.addingTimeInterval(746)),
        MetricSeries(
            name: "sync.succeeded", kind: .counter, count: 211, value: 211, ratePerSecond: 0.28,
            updatedAt: fixtureStart.addingTimeInterval(740)),
        MetricSeries(
            name: "auth.login.failed", kind: .counter, count: 5, value: 5, ratePerSecond: 0.01,
            updatedAt: fixtureStart.addingTimeInterval(720)),
        MetricSeries(
            name: "queue.depth", kind: .gauge, unit: "1", count: 40, value: 17,
            updatedAt: fixtureStart.addingTimeInterval(700)),
    ]
}

extension AttachedApp {
    /// An app attached the way the demo attaches itself, with the demo's keys.
    static let fixture = AttachedApp(
        name: "demo", title: "Demo app: break it and heal it",
        bindings: [
            ("i", "invalidCredentials", "Log in with invalid credentials", "bad login"),
            ("o", "toggleOffline", "Network offline on/off", "offline"),
            ("w", "toggleSlowNetwork", "Slow network and timeouts on/off", "slow"),
            ("x", "sessionExpired", "Expire the session (401)", "expire"),
            ("s", "serverErrorBurst", "Server-error burst (5xx)", "5xx"),
            ("b", "softwareBug", "Hit a software bug", "bug"),
            ("S", "errorStorm", "Error storm", "storm"),
            ("l", "logInNow", "Log in now", "login"),
            ("a", "toggleAutoLogin", "Auto-login on/off", nil),
            ("r", "recoverAll", "Recover everything", "recover"),
        ].map { (key: Character, id: String, summary: String, hint: String?) in
            KeyBinding(
                keys: [.character(key)], command: .app(AppCommand(app: "demo", id: id)), summary: summary, hint: hint)
        })
}

extension DashboardState {
    /// A realistic dashboard twelve and a half minutes into a session of breaking the demo app: login failures,
    /// `Server unavailable ×12`, offline, an expired session, background sync failures and a bug report; its
    /// statuses (login, session, sync) unless `statuses` is false.
    static func sample(
        width: Int = 120, height: Int = 40, events: Int = 300, colorDepth: ColorDepth = .colors256,
        unicode: Bool = true, themes: [Theme] = [.default], statuses: Bool = true
    ) -> DashboardState {
        var state = DashboardState(
            width: width, height: height, now: fixtureStart, themes: themes,
            colorDepth: colorDepth, unicode: unicode)
        let now = fixtureStart.addingTimeInterval(754)
        let batch = (0..<events).map { i in
            DashboardEvent.fixture(i, at: now.addingTimeInterval(-Double(events - i) * 1.5))
        }
        var actions: [DashboardAction] = [
            .appAttached(.fixture), .eventsReceived(batch), .metricsSampled(.fixture),
        ]
        let alerts: [(String, String, ErrorCode, ErrorSeverity, ErrorCategory, Int, Double, String)] = [
            (
                "bug|orders.decode", "Something went wrong. We've been notified.", "B-17", .critical, .bug, 1, 95,
                "DecodingError"
            ),
            ("offline", "You're offline", "N-1009", .warning, .transient, 5, 130, "NetworkError"),
            ("auth|A-101", "Wrong email or password", "A-101", .warning, .userActionable, 3, 41, "AuthError"),
            (
                "session|A-401", "Session expired, please log in again", "A-401", .warning, .userActionable, 1, 12,
                "SessionError"
            ),
            ("N-503|api.orders", "Server unavailable", "N-503", .error, .transient, 12, 3, "ServerError"),
        ]
        for (fingerprint, title, code, severity, category, count, age, type) in alerts {
            actions.append(
                .alertReceived(
                    AlertRecord(
                        fingerprint: fingerprint, title: title, code: code, severity: severity, category: category,
                        count: count, firstSeen: now.addingTimeInterval(-age - 30),
                        lastSeen: now.addingTimeInterval(-age),
                        source: "app", typeName: type)))
        }
        actions.append(
            .alertReceived(
                AlertRecord(
                    fingerprint: "sync", title: "Sync failed", code: "T-408", severity: .error, category: .transient,
                    count: 97, firstSeen: now, lastSeen: now, source: "sync.batch", typeName: "SyncError",
                    origin: .background)))
        let published: [DashboardAction] = [
            .statusChanged(
                StatusEntry(
                    name: "login", state: "logged in", health: .ok, detail: "success after 2 failures",
                    changedAt: now.addingTimeInterval(-8))),
            .statusChanged(
                StatusEntry(
                    name: "session", state: "expired → re-login", health: .degraded,
                    detail: "401 session expired (A-401)", changedAt: now.addingTimeInterval(-12))),
            .statusChanged(
                StatusEntry(
                    name: "sync", state: "retrying 3/5", health: .failing, detail: "timeout after 10s (T-408)",
                    changedAt: now.addingTimeInterval(-2))),
        ]
        actions += statuses ? published : []
        actions.append(.tick(now))
        for action in actions { _ = DashboardReducer.reduce(into: &state, action: action) }
        return state
    }
}

/// Themes/ next to the package root, found from this file.
let themesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Themes")
let docsDirectory = themesDirectory.deletingLastPathComponent().appendingPathComponent("docs")
