import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Issue 26: `9999-12-31T23:59:59.999999999Z` was shown as `00:00:00`. Times at the edges of the year range, and
/// fractions that a `Double` rounds up, stay in the second the producer sent.
struct TimeEdgeTests {
    /// Seconds since 1970 of `year`-`month`-`day` `hour`:`minute`:`second` UTC.
    func second(_ year: Int64, _ month: Int64, _ day: Int64, _ hour: Int64 = 0, _ minute: Int64 = 0, _ second: Int64 = 0)
        -> Int64
    {
        CivilDate.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    @Test func theLastInstantOfYear9999StaysInIt() {
        let date = CivilDate.date(second: second(9999, 12, 31, 23, 59, 59), fraction: 0.999_999_999)
        #expect(Format.clock(date) == "23:59:59")
        #expect(Format.timestamp(date) == "9999-12-31 23:59:59.999 UTC")
    }

    @Test func aFractionADoubleRoundsUpDoesNotWrapTheClock() {
        // At 2026 a Double holds a time to 0.24 µs: .9999999999 added to the second is the next second exactly.
        let date = CivilDate.date(second: second(2026, 12, 31, 23, 59, 59), fraction: 0.999_999_999_9)
        #expect(Format.clock(date) == "23:59:59")
        #expect(Format.timestamp(date) == "2026-12-31 23:59:59.999 UTC")
        // Milliseconds are cut, not rounded, so .9996 is not written as the next second's .000.
        let late = CivilDate.date(second: second(2026, 6, 1, 12), fraction: 0.9996)
        #expect(Format.timestamp(late) == "2026-06-01 12:00:00.999 UTC")
    }

    @Test func year1AndTheYearsBeforeAreShownAsSent() {
        let first = CivilDate.date(second: second(1, 1, 1), fraction: 0)
        #expect(Format.timestamp(first) == "0001-01-01 00:00:00.000 UTC")
        #expect(Format.clock(first) == "00:00:00")
        let zero = CivilDate.date(second: second(0, 12, 31, 23, 59, 59), fraction: 0.5)
        #expect(Format.timestamp(zero) == "0000-12-31 23:59:59.500 UTC")
        let ides = CivilDate.date(second: second(-44, 3, 15, 12), fraction: 0.25)
        #expect(Format.timestamp(ides) == "-0044-03-15 12:00:00.250 UTC")
    }

    @Test func negativeEpochsCountBackFrom1970() {
        let date = Date(timeIntervalSince1970: -1.5)
        #expect(Format.clock(date) == "23:59:58")
        #expect(Format.timestamp(date) == "1969-12-31 23:59:58.500 UTC")
        let beforeEpoch = CivilDate.date(second: -1, fraction: 0.999_999_999_9)
        #expect(Format.clock(beforeEpoch) == "23:59:59")
        #expect(Format.timestamp(beforeEpoch) == "1969-12-31 23:59:59.999 UTC")
    }

    @Test func datesTooFarAwayDoNotTrap() {
        #expect(Format.clock(Date(timeIntervalSince1970: 1e300)) == "--:--:--")
        #expect(Format.clock(Date(timeIntervalSince1970: -.infinity)) == "--:--:--")
        #expect(Format.timestamp(Date(timeIntervalSince1970: .nan)) == "(out of range)")
        #expect(Format.timestamp(.distantFuture) == "4001-01-01 00:00:00.000 UTC")
    }

    @Test func partsAndDateAreInverse() {
        for second in [second(9999, 12, 31, 23, 59, 59), second(1, 1, 1), -1, 0, 1_767_258_000] {
            let date = CivilDate.date(second: second, fraction: 0.999_999_999_999)
            #expect(CivilDate.parts(of: date)?.second == second)
            #expect(CivilDate.parts(of: CivilDate.date(second: second, fraction: 0))?.fraction == 0)
        }
    }

    /// The Logs pane's time column is the clock: the edge times show as sent there too.
    @Test func theLogsPaneShowsTheSentSecond() {
        var state = DashboardState(width: 120, height: 40, now: fixtureStart)
        let stamp = CivilDate.date(second: second(9999, 12, 31, 23, 59, 59), fraction: 0.999_999_999)
        let event = DashboardEvent(
            sequence: 1, timestamp: stamp, kind: .log, level: .info, source: "edge", typeName: "log",
            message: "the last instant")
        _ = DashboardReducer.reduce(into: &state, action: .eventReceived(event))
        let screen = Dashboard.render(state).textLines()
        #expect(screen.contains { $0.contains("23:59:59") && $0.contains("the last instant") })
        #expect(!screen.contains { $0.contains("00:00:00") && $0.contains("the last instant") })
    }
}
