import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// The queries' regex engine: the same answers as Swift's `Regex`, in time linear in the text.
struct LinearRegexTests {
    /// Swift's answer, ignoring case, with `\b` between `\w` and the rest (as in Perl and this engine; Swift's
    /// default follows Unicode's word rules, which keep `a.b` one word), for comparison.
    private func swift(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        try Regex(pattern).ignoresCase().wordBoundaryKind(.simple)
    }

    private func swiftRanges(_ pattern: String, _ text: String) throws -> [Range<String.Index>] {
        text.ranges(of: try swift(pattern)).filter { !$0.isEmpty }
    }

    @Test(arguments: [
        "a", "ab|ba", "a*b", "(ab)+", "a?b?a", "[ab]{2,3}", "[^a]+", #"\d+"#, #"\w+\s"#, "^a", "b$", "a.b",
        #"\bab\b"#, "(a|b)*c", "a{2}", "a{1,}", "(?:ab|a)b", "a+?", "(a*)*b", #"[\d_]+"#, "A", #"x\.y"#, #"\Aa"#,
        #"a\z"#, #"\Bb"#, "[a-c]+", "(?i)AB", "a*?b", #"(?<word>\w+) \w"#,
    ])
    func agreesWithSwiftRegexOnSeededTexts(_ pattern: String) throws {
        let regex = try LinearRegex(pattern)
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet: [Character] = ["a", "b", "A", "B", "c", "1", "2", "_", " ", ".", "x", "y", "\n"]
        for _ in 0..<300 {
            let length = Int.random(in: 0...12, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let expected = try swiftRanges(pattern, text)
            #expect(regex.isFound(in: text) == (try text.contains(swift(pattern))), "\(text.debugDescription)")
            #expect(regex.ranges(in: text) == expected, "\(pattern) in \(text.debugDescription)")
        }
    }

    @Test func unicodeTextAndCaseFolding() throws {
        let regex = try LinearRegex("GÜLTIGE")
        #expect(regex.isFound(in: "keine gültige Eingabe"))
        #expect(try LinearRegex(#"\w+"#).ranges(in: "héllo wörld").count == 2)
        #expect(try LinearRegex("[а-я]+").isFound(in: "ОШИБКА"))  // Cyrillic, upper case text, lower case class
    }

    /// The pattern that froze the dashboard for minutes under a backtracking engine: every line costs at most its
    /// length times the program's size.
    @Test func aCatastrophicPatternStaysLinear() throws {
        let regex = try LinearRegex("(a+)+$")
        let line = String(repeating: "a", count: 30_000) + "b"
        var steps = 0
        for _ in 0..<20 { #expect(!regex.isFound(in: line, steps: &steps)) }
        #expect(steps <= 20 * (line.unicodeScalars.count + 1) * regex.program.count)
        #expect(regex.isFound(in: String(repeating: "a", count: 30_000)))
        let nested = try LinearRegex("(x+x+)+y")
        steps = 0
        #expect(!nested.isFound(in: String(repeating: "x", count: 5_000), steps: &steps))
        #expect(steps <= 5_001 * nested.program.count)
    }

    @Test(arguments: [
        (#"(a)\1"#, "backreferences are not supported"), ("a(?=b)", "lookahead is not supported"),
        ("(?<=a)b", "lookbehind is not supported"), ("(?>ab)", "atomic groups are not supported"),
        ("a++", "possessive quantifiers are not supported"), (#"\p{L}"#, #"\p{…} classes are not supported"#),
        ("a{5000}", "counts above 1000 are not supported"), ("(a{1000}){1000}", "the pattern is too large"),
    ])
    func whatNeedsBacktrackingIsRefusedInAFewWords(_ pattern: String, _ message: String) {
        #expect(throws: LinearRegex.Unsupported.self) { try LinearRegex(pattern) }
        do {
            _ = try LinearRegex(pattern)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aQueryWithAnUnsupportedRegexIsReportedAndTheOldQueryStays() throws {
        let error = try #require(
            {
                if case .failure(let error) = Query.parse(#"x /(a)\1/"#) { return error }
                return nil
            }())
        #expect(error.position == 2)
        #expect(error.message == "invalid regex: backreferences are not supported")
    }
}
