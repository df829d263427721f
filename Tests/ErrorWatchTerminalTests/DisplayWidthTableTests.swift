import CNCurses
import ErrorWatchUI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// ``DisplayWidth``'s table is checked against the C library's `wcwidth`, which ncurses uses to place text, for
/// every code point: where they disagree, a row would spill over a border or leave stale cells on screen.
@Suite(.serialized)
struct DisplayWidthTableTests {
    @Test func everyCodePointHasTheWidthNcursesGivesIt() throws {
        let previous = setlocale(LC_CTYPE, nil).map { String(cString: $0) }
        defer { _ = setlocale(LC_CTYPE, previous ?? "C") }
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil, "the C.UTF-8 locale is missing")
        var mismatches: [String] = []
        var compared = 0
        for value in UInt32(0xA0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if ew_wcwidth(wchar_t(value)) < 0 {
                if !Sanitizer.isUnsafe(scalar), mismatches.count < 200 {
                    mismatches.append("U+\(String(value, radix: 16, uppercase: true)) unknown to wcwidth but not escaped")
                }
                continue
            }
            guard !Sanitizer.isUnsafe(scalar) else { continue }
            let expected = Int(ew_wcwidth(wchar_t(value)))
            // -1: a code point this C library does not know; the sanitizer escapes those (checked above).
            guard expected >= 0 else { continue }
            compared += 1
            let ours = DisplayWidth.width(of: scalar)
            if ours != expected, mismatches.count < 200 {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true)) ours \(ours) wcwidth \(expected)")
            }
        }
        #expect(compared > 250_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(60))")
    }
}
