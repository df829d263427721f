import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// The bounded reader of Sentry payloads: limits applied while reading (frames, chains, breadcrumbs, depth, text),
/// lone surrogates repaired and shown, and ordinary payloads mapped exactly as `JSONSerialization` had them mapped.
struct SentryJSONReaderTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    static func read(_ json: String, budget: SentryJSONReader.Budget = .standard) throws -> SentryJSONReader.Result {
        try SentryJSONReader.read(Array(json.utf8)[...], budget: budget)
    }

    /// A stack of `count` frames, each `{"function":"fN","lineno":N,"in_app":true}`.
    static func deepStack(_ count: Int) -> String {
        var text = #"{"exception":{"values":[{"type":"RecursionError","stacktrace":{"frames":["#
        text.reserveCapacity(count * 48 + 100)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"function":"f\#(index)","lineno":\#(index),"in_app":true}"#
        }
        return text + "]}}]}}"
    }

    // MARK: The same events as before

    /// Ordinary payloads: the house's samples and fuzz seeds, with every kind of JSON value.
    static func ordinaryPayloads() throws -> [(type: String, json: [UInt8])] {
        var payloads: [(String, [UInt8])] = [
            ("event", Array(SentryMappingTests.pythonEvent.utf8)),
            ("event", Array(SentryDocsTests.sample.utf8)),
            ("event", Array(SentryDocsTests.messageSample.utf8)),
            ("transaction", Array(SentryTransactionSpansTests.transaction.utf8)),
            (
                "event",
                Array(
                    #"""
                    {"message":"caf\u00e9 \ud83d\ude00 \"quoted\" \\ \/ \n\t","level":"warning","logger":"app.db",
                     "tags":[["a","1"],["b",2]],"extra":{"n":-1.5e3,"big":12345678901234,"t":true,"f":false,"z":null,
                     "list":[1,[2,{"x":"y"}],[]],"empty":{}},"user":{"id":7},"fingerprint":["{{ default }}","db"],
                     "breadcrumbs":{"values":[{"timestamp":1800000000.5,"category":"http","data":{"url":"/a","status":500}}]},
                     "contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"b0e6f15b45c36b12",
                     "op":"http"},"os":{"name":"Linux","version":"6.1"}},"timestamp":"2026-11-25T18:14:19Z"}
                    """#.utf8)
            ),
            (
                "log",
                Array(
                    #"{"items":[{"timestamp":1800000000.25,"level":"error","body":"disk full","trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","attributes":{"sentry.release":{"value":"shop@1","type":"string"},"count":{"value":3,"type":"integer"}}}]}"#
                        .utf8)
            ),
        ]
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzSentry")
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() {
            let data = try #require(FileManager.default.contents(atPath: corpus.appendingPathComponent(name).path))
            guard let selector = data.first, selector & 4 == 0 else { continue }  // gzip seeds: inflated elsewhere
            let body = Array(data.dropFirst())
            if selector & 3 == 1 {
                payloads.append(("event", body))
                continue
            }
            for item in try SentryEnvelope.read(body).items where ["event", "transaction", "log"].contains(item.type) {
                payloads.append((item.type, Array(item.payload)))
            }
        }
        return payloads
    }

    @Test func ordinaryPayloadsMapToTheSameEventsAsJSONSerializationGave() throws {
        let payloads = try Self.ordinaryPayloads()
        #expect(payloads.count >= 8)
        for (type, json) in payloads {
            let reference = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            let read = try SentryJSONReader.read(json[...])
            #expect(read.cuts.isEmpty)
            let before = SentryEventMapper.map(type: type, payload: reference, receivedAt: Self.received)
            let now = SentryEventMapper.map(type: type, payload: read.object, receivedAt: Self.received)
            #expect(now == before, "\(String(decoding: json.prefix(80), as: UTF8.self))")
            #expect(!now.isEmpty || type == "transaction")
            if type == "transaction" {
                #expect(SentryEventMapper.spans(read.object) == SentryEventMapper.spans(reference))
            }
        }
    }

    @Test func valuesKeepTheirJSONKinds() throws {
        let object = try Self.read(#"{"t":true,"f":false,"i":42,"d":1.5,"n":null,"s":"x","e":-2E2}"#).object
        #expect(SentryJSON.bool(object["t"]) == true)
        #expect(SentryJSON.bool(object["f"]) == false)
        #expect(SentryJSON.bool(object["i"]) == nil)
        #expect(SentryJSON.int(object["i"]) == 42)
        #expect(SentryJSON.int(object["t"]) == nil)
        #expect(SentryJSON.text(object["d"]) == "1.5")
        #expect(SentryJSON.text(object["n"]) == nil)
        #expect(SentryJSON.int(object["e"]) == -200)
    }

    @Test(arguments: [
        "", "[]", "\"text\"", "{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":01}"#, #"{"a":"\x"}"#,
        "{\"a\":\"\u{01}\"}", #"{"a":tru}"#, #"{"a":1} x"#, #"{"a":"\u12"}"#, #"{"a":1.}"#,
    ])
    func whatIsNotAJSONObjectIsRefused(_ text: String) {
        #expect(throws: SentryJSONReader.Failure.self) { try Self.read(text) }
        #expect(SentryJSON.object(Array(text.utf8)[...]) == nil)
    }

    // MARK: Budgets while reading

    @Test func aHundredThousandFramesKeepTheFirst50AndLast200AndSayHowManyWereSent() throws {
        // A value budget far below what 100,000 frames would build: the frames between are read past, never built.
        var budget = SentryJSONReader.Budget()
        budget.maximumValues = 5_000
        let read = try Self.read(Self.deepStack(100_000), budget: budget)
        #expect(read.cuts.isEmpty)
        let mapped = try #require(
            SentryEventMapper.map(type: "event", payload: read.object, receivedAt: Self.received).first)
        let report = try #require(mapped.report)
        let frames = report.exceptions[0].frames
        #expect(frames.count == 250)
        #expect(frames.first?.function == "f0")
        #expect(frames[49].function == "f49")
        #expect(frames[50].function == "f99800")
        #expect(frames.last?.function == "f99999")
        #expect(report.exceptions[0].framesOmitted == 99_750)
        #expect(report.cut.contains("frames: kept the first 50 and last 200 of 100000"))
        #expect(mapped.event.codeFunction == "f99999")
    }

    @Test func chainsAndBreadcrumbsKeepTheirLastAndCountTheRest() throws {
        let exceptions = (0..<30).map { #"{"type":"E\#($0)"}"# }.joined(separator: ",")
        let crumbs = (0..<250).map { #"{"message":"c\#($0)"}"# }.joined(separator: ",")
        let read = try Self.read(#"{"exception":{"values":[\#(exceptions)]},"breadcrumbs":[\#(crumbs)]}"#)
        let report = try #require(
            SentryEventMapper.map(type: "event", payload: read.object, receivedAt: Self.received).first?.report)
        #expect(report.exceptions.count == 20)
        #expect(report.exceptions.first?.type == "E29")
        #expect(report.exceptions.last?.type == "E10")
        #expect(report.breadcrumbs.count == 100)
        #expect(report.breadcrumbs.first?.message == "c150")
        #expect(report.cut.contains("exceptions: kept the last 20 of 30"))
        #expect(report.cut.contains("breadcrumbs: kept the last 100 of 250"))
    }

    @Test func aListInsideTwoCountedListsKeepsItsLastThroughAWindow() throws {
        // The chain and the frames are counted first; breadcrumbs inside a frame's vars are kept through a window.
        let numbers = (0..<500).map(String.init).joined(separator: ",")
        let read = try Self.read(
            #"{"exception":[{"stacktrace":{"frames":[{"vars":{"breadcrumbs":[\#(numbers)]}}]}}]}"#)
        let chain = try #require(read.object["exception"] as? [Any])
        let frames = try #require(
            ((chain.first as? [String: Any])?["stacktrace"] as? [String: Any])?["frames"] as? [Any])
        let list = try #require(((frames.first as? [String: Any])?["vars"] as? [String: Any])?["breadcrumbs"] as? [Any])
        #expect(list.count == 101)
        #expect((list.first as? SentryJSONReader.Omitted)?.count == 400)
        #expect(SentryJSON.int(list.last) == 499)
        #expect(SentryJSON.list(list)?.total == 500)
    }

    @Test func otherListsAndObjectsKeepTheirFirstWithinTheBudget() throws {
        var budget = SentryJSONReader.Budget()
        budget.maximumElements = 3
        budget.maximumMembers = 2
        let read = try Self.read(#"{"extra":{"a":[1,2,3,4,5]},"b":1,"c":2}"#, budget: budget)
        #expect(read.object.count == 2)
        #expect(read.cuts.contains("objects: 1 members past the first 2 were not read"))
        let list = try #require((read.object["extra"] as? [String: Any])?["a"] as? [Any])
        #expect(SentryJSON.list(list)?.elements.count == 3)
        #expect(SentryJSON.list(list)?.total == 5)
        // Written back as JSON, the omitted elements say how many they were.
        #expect(SentryJSON.text(list) == #"[1,2,3,"… 2 more"]"#)
    }

    @Test func nestingPastTheDepthIsRefusedWithItsReason() throws {
        var budget = SentryJSONReader.Budget()
        budget.maximumDepth = 8
        let nested = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect(throws: SentryJSONReader.Failure.tooDeep(8)) {
            try Self.read(#"{"contexts":\#(nested)}"#, budget: budget)
        }
        #expect(throws: Never.self) { try Self.read(#"{"contexts":[[[[[[]]]]]]}"#, budget: budget) }
        // The standard depth: far past any SDK's own cut, far within the stack.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SentryJSONReader.Failure.tooDeep(256)) { try Self.read(#"{"contexts":\#(deep)}"#) }
    }

    @Test func longTextIsCutWhileReadAndLaterTextShorterOnceTheItemHasKeptItsShare() throws {
        var budget = SentryJSONReader.Budget()
        budget.maximumStringBytes = 10
        budget.keptStringBytes = 12
        budget.shortStringBytes = 4
        let read = try Self.read(#"{"a":"0123456789abcdef","b":"0123456789","c":"é"}"#, budget: budget)
        #expect(read.object["a"] as? String == "0123456789…")
        // "a" and its text kept 11 bytes, the name "b" the twelfth: what follows is short.
        #expect(read.object["b"] as? String == "0123…")
        #expect(read.cuts.contains { $0.hasPrefix("text: 1 strings longer than 10 bytes") })
        #expect(read.cuts.contains { $0.contains("later strings were cut to 4 bytes") })
        // A character is never cut in two.
        budget.maximumStringBytes = 3
        budget.keptStringBytes = 1_000
        #expect(try Self.read(#"{"c":"aaé"}"#, budget: budget).object["c"] as? String == "aa…")
    }

    // MARK: Lone surrogates

    @Test func aLoneSurrogateIsReplacedAndTheEventShownWithTheRepairSaid() throws {
        let read = try Self.read(#"{"message":"bad \ud800 here \udc00 and \ud83d\ude00"}"#)
        #expect(read.object["message"] as? String == "bad \u{FFFD} here \u{FFFD} and 😀")
        #expect(read.cuts == ["text: 2 lone UTF-16 surrogate escapes were replaced with U+FFFD"])

        let payload = #"{"exception":{"values":[{"type":"ValueError","value":"name \ud800"}]}}"#
        let body = "{}\n" + #"{"type":"event","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
        let answer = SentryRequestDecoder().decode(path: "/api/1/envelope/", body: Array(body.utf8))
        #expect(answer.status == 200)
        let mapped = try #require(answer.events.first)
        #expect(mapped.event.exceptionMessage == "name \u{FFFD}")
        #expect(mapped.report?.cut.contains("text: 1 lone UTF-16 surrogate escapes were replaced with U+FFFD") == true)
    }

    // MARK: Refused, never 200 and lost

    @Test func anEnvelopeWhoseOnlyEventCannotBeReadIsAnswered400WithTheReason() {
        let nested = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        for payload in [#"{"message":"cut off"#, #"{"contexts":\#(nested)}"#] {
            let body = "{}\n" + #"{"type":"event","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
            let answer = SentryRequestDecoder().decode(path: "/api/1/envelope/", body: Array(body.utf8))
            #expect(answer.status == 400)
            #expect(answer.events.isEmpty)
            #expect(answer.problem?.contains("an event item was refused: ") == true)
        }
        let store = SentryRequestDecoder().decode(path: "/api/1/store/", body: Array(#"{"message":"#.utf8))
        #expect(store.status == 400)
        #expect(store.problem?.contains("not JSON") == true)
    }

    @Test func aBrokenItemBesideAGoodOneIsCountedAndTheGoodOneKept() throws {
        let good = #"{"message":"kept"}"#
        let bad = #"{"message":"#
        let body =
            "{}\n" + #"{"type":"event","length":\#(good.utf8.count)}"# + "\n" + good + "\n"
            + #"{"type":"event","length":\#(bad.utf8.count)}"# + "\n" + bad + "\n"
        let answer = SentryRequestDecoder().decode(path: "/api/1/envelope/", body: Array(body.utf8))
        #expect(answer.status == 200)
        #expect(answer.events.count == 1)
        #expect(answer.skipped == 1)
        #expect(answer.problem?.contains("an event item was refused: not JSON") == true)
    }
}
