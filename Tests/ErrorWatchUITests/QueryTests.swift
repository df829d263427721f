import ErrorStreaming
import Testing

@testable import ErrorWatchUI

struct QueryTests {
    /// Named subjects; a case lists the names its query should match, in this order.
    static let subjects: [(name: String, subject: QuerySubject)] = [
        (
            "payment",
            QuerySubject(
                level: .error, type: "PaymentError", qualifiedType: "Checkout.PaymentError", code: "N-503",
                service: "shop-api", source: "checkout.pay", origin: .user, category: .transient,
                texts: ["Card declined by issuer", "Your card was declined", "Payment failed"])
        ),
        (
            "sync",
            QuerySubject(
                level: .warning, type: "SyncError", qualifiedType: "Sync.SyncError", code: "S-110",
                service: "sync-worker", source: "sync.pull", origin: .background, category: .userActionable,
                texts: ["Timed out after 30s"])
        ),
        (
            "crash",
            QuerySubject(
                level: .critical, type: "DecodingError", qualifiedType: "Swift.DecodingError", service: "shop-api",
                source: "catalog.decode", origin: .user, category: .bug,
                texts: ["Ungültige Antwort: «prix» manquant", "Something went wrong"])
        ),
        (
            "log",
            QuerySubject(
                level: .info, source: "http.server", texts: ["Server started on port 8080", "GET /health/live 200"])
        ),
        ("bare", QuerySubject()),
    ]

    static let everyone = subjects.map(\.name)

    func parsed(_ text: String) throws -> Query {
        try Query.parse(text).get()
    }

    func matching(_ text: String) throws -> [String] {
        let query = try parsed(text)
        return Self.subjects.filter { query.matches($0.subject) }.map(\.name)
    }

    func parseError(_ text: String) -> QueryError? {
        if case .failure(let error) = Query.parse(text) { return error }
        return nil
    }

    /// The highlighted pieces of `text`, in order.
    func highlighted(_ query: String, in text: String) throws -> [String] {
        try parsed(query).highlights(in: text).map { String(text[$0]) }
    }

    // MARK: Matching

    @Test(arguments: [
        ("payment", ["payment"]),
        ("PAYMENT", ["payment"]),
        ("checkout", ["payment"]),
        ("n-503", ["payment"]),
        ("shop", ["payment", "crash"]),
        ("sync.pull", ["sync"]),
        ("port", ["log"]),
        ("Swift.", ["crash"]),
        ("ungültige", ["crash"]),
        ("UNGÜLTIGE", ["crash"]),
        ("«prix»", ["crash"]),
        ("nothing-here", []),
        ("12:30", []),
        ("-", ["payment", "sync", "crash"]),
    ])
    func bareWordsSearchTypeCodeSourceServiceAndTexts(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("\"card declined\"", ["payment"]),
        ("\"CARD DECLINED by\"", ["payment"]),
        ("\"declined card\"", []),
        ("\"on port 80\"", ["log"]),
        ("\"went wrong\"", ["crash"]),
        ("\"card\"declined", ["payment"]),
        ("\"card\"wrong", []),
    ])
    func quotedPhrasesMatchAsOneSubstring(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        (#"/time[sd]? ?out/"#, ["sync"]),
        ("/^payment/", ["payment"]),
        (#"/^N-\d{3}$/"#, ["payment"]),
        (#"/port \d+$/"#, ["log"]),
        (#"/health\/live/"#, ["log"]),
        (#"/health\/dead/"#, []),
        ("/DECODING.*ERROR/", ["crash"]),
        ("/gültige/", ["crash"]),
        ("/xyz/", []),
    ])
    func regexesMatchTheSameFieldsIgnoringCase(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("level:error", ["payment"]),
        ("level:warning", ["sync"]),
        ("level:warn", ["sync"]),
        ("level:WARNING", ["sync"]),
        ("level:warning+", ["payment", "sync", "crash"]),
        ("level:warn+", ["payment", "sync", "crash"]),
        ("LEVEL:critical", ["crash"]),
        ("level:critical+", ["crash"]),
        ("level:debug+", ["payment", "sync", "crash", "log"]),
        ("level:info", ["log"]),
        ("level:notice", []),
        ("level:\"error+\"", ["payment", "crash"]),
    ])
    func levelIsExactOrThisAndAbove(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("type:payment", ["payment"]),
        ("type:sync.", ["sync"]),
        ("type:Error", ["payment", "sync", "crash"]),
        ("type:\"PaymentError\"", ["payment"]),
        ("type:\"Decoding Error\"", []),
        ("type:checkout", ["payment"]),
        ("type:port", []),
        ("code:N-5", ["payment"]),
        ("code:n-503", ["payment"]),
        ("code:S", ["sync"]),
        ("code:503", []),
        ("code:N-5031", []),
        ("service:shop", ["payment", "crash"]),
        ("service:WORKER", ["sync"]),
        ("service:\"shop-api\"", ["payment", "crash"]),
        ("service:checkout", []),
        ("source:checkout", ["payment"]),
        ("source:PULL", ["sync"]),
        ("source:\"http.server\"", ["log"]),
        ("source:shop", []),
    ])
    func textFieldsLookOnlyAtTheirField(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("origin:user", ["payment", "crash"]),
        ("origin:USER", ["payment", "crash"]),
        ("origin:background", ["sync"]),
        ("category:bug", ["crash"]),
        ("category:transient", ["payment"]),
        ("category:userActionable", ["sync"]),
        ("category:user-actionable", ["sync"]),
        ("category:useractionable", ["sync"]),
        ("category:\"bug\"", ["crash"]),
        ("category:unrecoverable", []),
        ("category:expected", []),
    ])
    func originAndCategoryAreExact(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("-payment", ["sync", "crash", "log", "bare"]),
        ("-\"card declined\"", ["sync", "crash", "log", "bare"]),
        ("-/time/", ["payment", "crash", "log", "bare"]),
        ("-level:warning+", ["log", "bare"]),
        ("-origin:background", ["payment", "crash", "log", "bare"]),
        ("-code:N", ["sync", "crash", "log", "bare"]),
        ("-category:bug", ["payment", "sync", "log", "bare"]),
        ("-type:Error", ["log", "bare"]),
        ("-service:shop", ["sync", "log", "bare"]),
        ("-source:pull", ["payment", "crash", "log", "bare"]),
        ("--", ["log", "bare"]),
    ])
    func aMinusExcludesAnyKindOfTerm(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test(arguments: [
        ("shop level:critical", ["crash"]),
        ("shop -category:bug", ["payment"]),
        ("error level:warning+ -origin:background", ["payment", "crash"]),
        ("payment sync", []),
        ("level:error level:warning", []),
        ("  declined\t\"your card\"  /issuer$/ ", ["payment"]),
        ("type:error -/time|wrong/ code:n", ["payment"]),
    ])
    func termsAreJoinedByAnd(_ query: String, _ expected: [String]) throws {
        #expect(try matching(query) == expected)
    }

    @Test func emptyTextMatchesEverything() throws {
        for text in ["", "   ", "\t\n"] {
            let query = try parsed(text)
            #expect(query.isEmpty)
            #expect(try matching(text) == Self.everyone)
            #expect(query.highlights(in: "anything").isEmpty)
        }
        let blank = try parsed("")
        #expect(Query.empty.isEmpty && Query.empty == blank)
        #expect(try !parsed("a").isEmpty)
    }

    @Test func cheapTermsAreCheckedFirst() throws {
        let query = try parsed(#"/x/ word source:a -level:error code:N "a b" origin:user type:T"#)
        let costs = query.clauses.map(\.term.cost)
        #expect(costs == costs.sorted())
        #expect(costs.first == 0 && costs.last == 4)
        #expect(query.clauses.first?.isExcluded == true, "-level:error keeps its place among equals and its minus")
    }

    @Test func queriesAreEqualByText() throws {
        #expect(try parsed("level:error") == (try parsed("level:error")))
        #expect(try parsed("level:error") != (try parsed("level:error ")))
        #expect(Set([try parsed("a"), try parsed("a"), try parsed("b")]).count == 2)
        #expect(try parsed("  Card  ").text == "  Card  ")
    }

    @Test func aQueryIsSharedAcrossTasks() async throws {
        let query = try parsed("/declined|wrong/ -level:critical")
        let subjects = Self.subjects.map(\.subject)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).reduce(0) { total, _ in total + subjects.filter(query.matches).count } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 200, count: 8))
    }

    // MARK: Errors

    @Test(arguments: [
        ("level:error \"card", 12, "unclosed quote"),
        ("type:\"Pay", 5, "unclosed quote"),
        ("\"", 0, "unclosed quote"),
        ("abc /time", 4, "unclosed regex"),
        (#"/ab\"#, 0, "unclosed regex"),
        (#"/ab\/"#, 0, "unclosed regex"),
        (
            "level:error foo:bar", 12,
            "unknown field \"foo\" (fields: level, type, code, service, source, origin, category, is, version, env, "
                + "trace, status, duration)"
        ),
        (
            "-Foo:\"x y\"", 1,
            "unknown field \"Foo\" (fields: level, type, code, service, source, origin, category, is, version, env, "
                + "trace, status, duration)"
        ),
        ("type:", 5, "empty value for \"type:\""),
        ("x code: y", 7, "empty value for \"code:\""),
        ("source:\"\"", 7, "empty value for \"source:\""),
        ("level:loud", 6, "unknown level \"loud\" (levels: debug, info, notice, warning, error, critical)"),
        ("level:+", 6, "unknown level \"+\" (levels: debug, info, notice, warning, error, critical)"),
        ("level:warning++", 6, "unknown level \"warning++\" (levels: debug, info, notice, warning, error, critical)"),
        ("origin:robot", 7, "unknown origin \"robot\" (origins: user, background)"),
        (
            "a category:oops", 11,
            "unknown category \"oops\" (categories: bug, userActionable, transient, unrecoverable, expected)"
        ),
        ("\"\"", 0, "empty phrase"),
        ("a -\"bc", 3, "unclosed quote"),
        ("a -/bc", 3, "unclosed regex"),
        ("a //", 2, "empty regex"),
        ("é漢🇫🇷 \"x", 4, "unclosed quote"),
        (
            "e\u{301}e\u{301} foo:1", 3,
            "unknown field \"foo\" (fields: level, type, code, service, source, origin, category, is, version, env, "
                + "trace, status, duration)"
        ),
        ("👩‍💻 level:nope", 8, "unknown level \"nope\" (levels: debug, info, notice, warning, error, critical)"),
        (
            "foo:x \"", 0,
            "unknown field \"foo\" (fields: level, type, code, service, source, origin, category, is, version, env, "
                + "trace, status, duration)"
        ),
    ])
    func errorsSayWhatAndWhere(_ text: String, _ position: Int, _ message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.position == position)
        #expect(error.message == message)
        #expect(error.description == "at \(position): \(message)")
    }

    @Test(arguments: ["x /(/", "x /a{2,1}/", #"x /\p{Nope}/"#, "x /(?<n>a)(?<n>b)/", "x /a**/"])
    func invalidRegexesReportSwiftsMessageOnOneLine(_ text: String) throws {
        let error = try #require(parseError(text))
        #expect(error.position == 2)
        #expect(error.message.hasPrefix("invalid regex: "))
        #expect(error.message.count > "invalid regex: ".count)
        #expect(error.message.count <= "invalid regex: ".count + 80)
        #expect(!error.message.contains { $0.isNewline })
    }

    @Test func invalidRegexKeepsSwiftsWords() throws {
        #expect(parseError("/(/")?.message == "invalid regex: expected ')'")
    }

    // MARK: Highlights

    @Test func highlightsEveryOccurrenceOfWordsPhrasesAndRegexes() throws {
        #expect(try highlighted("card", in: "Card declined, card blocked") == ["Card", "card"])
        #expect(try highlighted("\"card declined\"", in: "Card declined, card blocked") == ["Card declined"])
        #expect(try highlighted(#"/\d+/"#, in: "port 8080 and 443") == ["8080", "443"])
        #expect(try highlighted("aa", in: "aaaaa") == ["aaaa"], "non-overlapping, then merged as they touch")
        #expect(try highlighted("zzz", in: "Card") == [])
    }

    @Test func highlightsAreSortedAndMerged() throws {
        #expect(try highlighted("world hello", in: "hello world") == ["hello", "world"])
        #expect(try highlighted(#""card dec" /decl\w+/"#, in: "Card declined now") == ["Card declined"])
        #expect(try highlighted("ab cd", in: "xabcdx") == ["abcd"])
        #expect(try highlighted("declined card", in: "card declined") == ["card", "declined"])
        let ranges = try parsed("b a c").highlights(in: "c b a c")
        #expect(ranges == ranges.sorted { $0.lowerBound < $1.lowerBound })
    }

    @Test func fieldsAndExclusionsAreNotHighlighted() throws {
        #expect(try highlighted("level:error type:card source:x -card -/dec/ decl", in: "card declined") == ["decl"])
        #expect(try highlighted("code:N -N", in: "N-503") == [])
    }

    @Test func highlightsEmptyRegexMatchesNothing() throws {
        #expect(try highlighted("/x*/", in: "abc") == [])
        #expect(try highlighted("/x*/", in: "axxb") == ["xx"])
    }

    @Test func highlightPositionsHoldAfterNonASCIIText() throws {
        let text = "Zeitüberschreitung 漢字 🇫🇷 e\u{301} timeout"
        let ranges = try parsed("timeout").highlights(in: text)
        #expect(ranges.count == 1)
        let range = try #require(ranges.first)
        #expect(String(text[range]) == "timeout")
        #expect(text.distance(from: text.startIndex, to: range.lowerBound) == 26)
        #expect(text.distance(from: text.startIndex, to: range.upperBound) == 33)

        let regex = try #require(try parsed("/time.ut/").highlights(in: text).first)
        #expect(regex == range)
    }

    @Test func nonASCIINeedlesHighlightIgnoringCase() throws {
        let text = "漢 Zeitüberschreitung ÜBER über"
        #expect(try highlighted("über", in: text) == ["über", "ÜBER", "über"])
        let first = try #require(try parsed("ÜBER").highlights(in: text).first)
        #expect(text.distance(from: text.startIndex, to: first.lowerBound) == 6)
        #expect(try highlighted("«prix»", in: "a «PRIX» b") == ["«PRIX»"])
    }

    @Test func highlightsCoverWholeCharacters() throws {
        let text = "Cafe\u{301} e"
        let ranges = try parsed("e").highlights(in: text)
        #expect(ranges.map { text[$0].unicodeScalars.count } == [2, 1], "the accent stays with its letter")
        #expect(ranges.allSatisfy { String.Index($0.lowerBound, within: text) != nil })
        #expect(ranges.allSatisfy { String.Index($0.upperBound, within: text) != nil })
    }

    // MARK: Robustness

    @Test func parsingRandomTextNeverCrashes() throws {
        let pieces = [
            "a", "Z", "7", " ", " ", "\t", "\n", "\"", "\"", "/", "/", "\\", ":", ":", "-", "-", "+", "(", ")", "[",
            "]", "*", "?", "{", "}", ".", "|", "^", "$", "é", "漢", "🇫🇷", "e\u{301}", "\u{301}", "👩‍💻", "\u{0}",
            "level", "type", "code", "service", "source", "origin", "category", "warning", "user", "bug", "card",
        ]
        var generator = SeededGenerator(seed: 0x5EED)
        let texts = Self.subjects.flatMap { [$0.subject.type, $0.subject.source] + $0.subject.texts }
        var outcomes: Set<String> = []
        for _ in 0..<4_000 {
            let length = Int.random(in: 0..<16, using: &generator)
            let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
            switch Query.parse(text) {
            case .success(let query):
                outcomes.insert("parsed")
                #expect(query.text == text)
                for (_, subject) in Self.subjects { _ = query.matches(subject) }
                for sample in texts + [text] {
                    let ranges = query.highlights(in: sample)
                    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
                    #expect(ranges.allSatisfy { !$0.isEmpty && $0.upperBound <= sample.endIndex })
                }
            case .failure(let error):
                outcomes.insert(String(error.message.prefix { $0 != "\"" && $0 != ":" }))
                #expect((0...text.count).contains(error.position), "\(text.debugDescription): \(error)")
                #expect(!error.message.isEmpty && !error.message.contains { $0.isNewline })
            }
        }
        let expected: Set = ["parsed", "unclosed quote", "unclosed regex", "invalid regex", "unknown field "]
        #expect(outcomes.isSuperset(of: expected), "the generator reaches every outcome: \(outcomes.sorted())")
    }

    // MARK: Syntax table

    @Test func syntaxTableFitsTheHelpOverlayAndEveryExampleParses() throws {
        // 13 since the trace terms (issue 37): the help overlay scrolls when its lines do not fit (issue 34).
        #expect((6...13).contains(QuerySyntax.lines.count))
        for row in QuerySyntax.lines {
            #expect(DisplayWidth.of(row.syntax) <= 18, "\(row.syntax)")
            #expect(DisplayWidth.of(row.meaning) <= 34, "\(row.meaning)")
            #expect(row.syntax.allSatisfy(\.isASCII) && row.meaning.allSatisfy(\.isASCII))
            #expect(throws: Never.self) { try Query.parse(row.syntax).get() }
        }
        let table = QuerySyntax.markdownTable()
        for row in QuerySyntax.lines { #expect(table.contains("| `\(row.syntax)` | \(row.meaning) |")) }
    }
}
