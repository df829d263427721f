import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest

/// Issue 26: a log line's time with nanoseconds just before the next second stays in its second (it showed as
/// `00:00:00` of the next day), up to the last instant of year 9999.
struct LogTimestampEdgeTests {
    func second(of text: String) -> Int64? { LogTimestamp.parse(text).flatMap { CivilDate.parts(of: $0)?.second } }

    @Test func aFractionNeverCarriesIntoTheNextSecond() {
        let last = CivilDate.days(fromCivil: 9999, 12, 31) * 86_400 + 86_399
        #expect(second(of: "9999-12-31T23:59:59.999999999Z") == last)
        #expect(second(of: "9999-12-31 23:59:59,999999999+00:00") == last)
        let newYearsEve = CivilDate.days(fromCivil: 2026, 12, 31) * 86_400 + 86_399
        #expect(second(of: "2026-12-31T23:59:59.9999999999Z") == newYearsEve)
        #expect(second(of: "1969-12-31T23:59:59.999999999Z") == -1)
    }
}
