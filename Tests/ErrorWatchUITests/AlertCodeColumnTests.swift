import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// The Alerts pane's code column widens to the longest code shown, so that a code such as SQLSTATE's `D-40001` is
/// read whole and the columns after it stay aligned.
struct AlertCodeColumnTests {
    private func render(_ codes: [ErrorCode], width: Int = 70) -> [String] {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        for (index, code) in codes.enumerated() {
            _ = DashboardReducer.reduce(
                into: &state,
                action: .alertReceived(
                    AlertRecord(
                        fingerprint: "f\(index)", title: "We could not complete your order just now", code: code,
                        severity: .error, category: .transient, count: 3, firstSeen: fixtureStart,
                        lastSeen: fixtureStart, source: "shop", typeName: "DatabaseDeadlock")))
        }
        var buffer = ScreenBuffer(width: width, height: codes.count + 2)
        let palette = Palette(theme: state.screen.theme, depth: state.screen.colorDepth)
        ErrorsPane.render(state, palette: palette, in: buffer.area, into: &buffer)
        return buffer.textLines()
    }

    @Test func aLongCodeIsShownWholeAndTheColumnsAfterItAlign() throws {
        let lines = render(["D-40001", "N-503"])
        let long = try #require(lines.first { $0.contains("D-40001") })
        let short = try #require(lines.first { $0.contains("N-503") })
        #expect(!long.contains("D-400…"))
        #expect(
            long.range(of: "transient")?.lowerBound.utf16Offset(in: long)
                == short.range(of: "transient")?.lowerBound.utf16Offset(in: short))
    }

    @Test func shortCodesKeepTheNarrowColumn() throws {
        let lines = render(["N-503"])
        let row = try #require(lines.first { $0.contains("N-503") })
        // Code (6) then category (15) then age (4), each after a space, before the border.
        #expect(row.hasSuffix(" N-503  transient        now│"))
    }

    @Test func aNineDigitCodeIsCutAtTwelveCells() throws {
        let lines = render(["E-123456789"])
        #expect(lines.contains { $0.contains("E-123456789") })
    }
}
