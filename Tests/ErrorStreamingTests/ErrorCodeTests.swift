import Testing

@testable import ErrorStreaming

struct ErrorCodeTests {
    @Test(arguments: [
        ("N-503", "N-503"), ("n503", "N-503"), ("x-0", "X-0"), ("P-000402", "P-402"), ("D-123456789", "D-123456789"),
    ])
    func parsesLetterAndDigits(text: String, expected: String) {
        #expect(ErrorCode(parsing: text)?.description == expected)
    }

    @Test(arguments: [
        "", "N", "N-", "5-1", "-5", "N--5", "N-+5", "N- 5", "N-5 ", "N-1234567890", "É-1", "N-5\u{301}", "N\u{301}-5",
        "N-\u{663}", "@-1", "[-1", "N-5a",
    ])
    func refusesAnythingElse(text: String) {
        #expect(ErrorCode(parsing: text) == nil)
    }

    @Test func domainsAreUppercaseASCIILettersOrX() {
        #expect(ErrorCode("n", 4).description == "N-4")
        #expect(ErrorCode("é", 1).description == "X-1")
        #expect(ErrorCode("1", 3).description == "X-3")
        #expect(ErrorCode("Z", -7).description == "Z-0")
        // Letters whose uppercase is not one ASCII letter ("ı" → "I", "ß" → "SS") are not ASCII letters either.
        #expect(ErrorCode("ı", 2).description == "X-2")
        #expect(ErrorCode("ß", 2).description == "X-2")
    }

    /// The byte-level parser agrees with the obvious `Character`-level reading on every text of up to four of the
    /// characters that matter (letters, digits, dashes, space, non-ASCII and combining marks): 30,941 texts.
    @Test func agreesWithACharacterLevelReading() {
        let alphabet: [String] = ["N", "n", "Z", "-", "0", "5", "9", " ", "é", "\u{301}", "\u{663}", "+", "@"]
        var texts: [String] = [""]
        var level: [String] = [""]
        for _ in 1...4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            texts += level
        }
        #expect(texts.count == 30_941)
        for text in texts where ErrorCode(parsing: text) != Self.reference(text) {
            Issue.record("\(text.debugDescription): \(String(describing: ErrorCode(parsing: text)))")
        }
    }

    private static func reference(_ text: String) -> ErrorCode? {
        var rest = Substring(text)
        guard let first = rest.first, first.isASCII, first.isLetter else { return nil }
        rest = rest.dropFirst()
        if rest.first == "-" { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 9, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(rest) else {
            return nil
        }
        return ErrorCode(first, n)
    }
}
