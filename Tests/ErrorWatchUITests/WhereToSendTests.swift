import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// Until something arrives, a dashboard with receivers says where to send in the Logs pane.
struct WhereToSendTests {
    static let receivers = [
        ReceiverAddress(
            kind: "OTLP/gRPC", address: "http://127.0.0.1:4317",
            setting: "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4317 OTEL_EXPORTER_OTLP_PROTOCOL=grpc"),
        ReceiverAddress(
            kind: "OTLP/HTTP", address: "http://127.0.0.1:4318", setting: "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318"),
        ReceiverAddress(
            kind: "Sentry", address: "http://127.0.0.1:8969/stream",
            setting: "SENTRY_SPOTLIGHT=http://127.0.0.1:8969/stream (or a DSN: http://key@127.0.0.1:8969/1)"),
        ReceiverAddress(kind: "NDJSON", address: "tcp:127.0.0.1:7777", setting: "ERRORWATCH_ENDPOINT=tcp:127.0.0.1:7777"),
    ]

    /// A dashboard that has received nothing yet.
    static func fresh(width: Int, height: Int) -> DashboardState {
        DashboardState(
            width: width, height: height, now: fixtureStart, themes: [.default], colorDepth: .colors256, unicode: true)
    }

    @Test func withoutReceiversItIsQuiet() {
        let text = Dashboard.render(Self.fresh(width: 120, height: 40)).textLines().joined(separator: "\n")
        #expect(text.contains("No alerts. All quiet.") && text.contains("Waiting for events…"))
    }

    @Test func eachReceiverOnALineOfItsOwn() {
        var state = Self.fresh(width: 120, height: 40)
        _ = DashboardReducer.reduce(into: &state, action: .receiversListening(Self.receivers))
        let text = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(!text.contains("Waiting for events…"))
        #expect(text.contains("Waiting for events. Send here:"))
        #expect(text.contains("Sentry     SENTRY_SPOTLIGHT=http://127.0.0.1:8969/stream"))
        #expect(text.contains("NDJSON     ERRORWATCH_ENDPOINT=tcp:127.0.0.1:7777"))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "where-to-send-120x40")
    }

    @Test func aSmallScreenWrapsEachSetting() {
        var state = Self.fresh(width: 80, height: 24)
        _ = DashboardReducer.reduce(into: &state, action: .receiversListening(Self.receivers))
        assertSnapshot(of: Dashboard.render(state), as: .screen, named: "where-to-send-80x24")
    }

    @Test func producersTextIsMadeSafe() {
        var state = Self.fresh(width: 120, height: 40)
        let hostile = ReceiverAddress(kind: "X\u{1b}]52;c;AA\u{7}", address: "a", setting: "K=\u{1b}[2Jv")
        _ = DashboardReducer.reduce(into: &state, action: .receiversListening([hostile]))
        #expect(!state.feeds.receivers[0].setting.contains("\u{1b}"))
        #expect(!state.feeds.receivers[0].kind.contains("\u{7}"))
    }
}
