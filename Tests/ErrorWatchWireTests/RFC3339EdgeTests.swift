import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// Issue 26: a fraction of a second never carries into the next second, reading or writing, at any year.
struct RFC3339EdgeTests {
    func second(of text: String) -> Int64? { RFC3339.parse(text).flatMap { CivilDate.parts(of: $0)?.second } }

    func expected(_ year: Int64, _ month: Int64, _ day: Int64, _ hour: Int64, _ minute: Int64, _ second: Int64)
        -> Int64
    {
        CivilDate.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    @Test func nanosecondsBeforeTheNextSecondStayInTheirSecond() {
        #expect(second(of: "9999-12-31T23:59:59.999999999Z") == expected(9999, 12, 31, 23, 59, 59))
        #expect(second(of: "2026-12-31T23:59:59.9999999Z") == expected(2026, 12, 31, 23, 59, 59))
        #expect(second(of: "1969-12-31T23:59:59.9999999Z") == -1)
        #expect(second(of: "0001-01-01T00:00:00.9999999Z") == expected(1, 1, 1, 0, 0, 0))
        #expect(RFC3339.format(RFC3339.parse("2026-12-31T23:59:59.9999999Z")!) == "2026-12-31T23:59:59.999999Z")
    }

    @Test func theLastMicrosecondOfYear9999IsWritable() throws {
        let last = try #require(RFC3339.parse("9999-12-31T23:59:59.999999Z"))
        #expect(RFC3339.canFormat(last))
        #expect(RFC3339.format(last).hasPrefix("9999-12-31T23:59:59.9999"))
    }

    @Test func theEdgesOfTheYearRangeReadBackAsWritten() throws {
        for text in ["0000-01-01T00:00:00.000000Z", "0001-01-01T00:00:00.500000Z", "1969-12-31T23:59:59.250000Z"] {
            let date = try #require(RFC3339.parse(text))
            #expect(RFC3339.format(date) == text)
        }
    }
}
