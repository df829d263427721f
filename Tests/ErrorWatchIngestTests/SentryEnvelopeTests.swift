import Foundation
import Testing

@testable import ErrorWatchIngest

/// The envelope reader: items with and without `length`, and every broken envelope of issue 23's bad-input list,
/// each keeping what can be kept and counting the rest.
struct SentryEnvelopeTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func itemsWithAndWithoutLengthAreRead() throws {
        let event = #"{"message":"hi"}"#
        let body = Self.bytes(
            #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sdk":{"name":"sentry.python","version":"2.75.0"}}"#
                + "\n" + #"{"type":"event","length":\#(event.utf8.count)}"# + "\n" + event + "\n"
                + #"{"type":"attachment"}"# + "\n" + "raw bytes\n")
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.eventID == "9ec79c33ec9942ab8353589fcb2e04dc")
        #expect(envelope.sdk == "sentry.python/2.75.0")
        #expect(envelope.items.map(\.type) == ["event", "attachment"])
        #expect(Array(envelope.items[0].payload) == Self.bytes(event))
        #expect(Array(envelope.items[1].payload) == Self.bytes("raw bytes"))
        #expect(envelope.problems.isEmpty)
    }

    @Test func aPayloadWithLengthMayHoldNewlinesAndTheLastNeedsNone() throws {
        let payload = "line one\nline two"
        let body = Self.bytes("{}\n" + #"{"type":"attachment","length":\#(payload.utf8.count)}"# + "\n" + payload)
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.items.count == 1)
        #expect(Array(envelope.items[0].payload) == Self.bytes(payload))
    }

    @Test func aMissingOrBrokenHeaderLineRefusesTheEnvelope() {
        #expect(throws: SentryEnvelope.Failure.missingHeader) { try SentryEnvelope.read([]) }
        #expect(throws: SentryEnvelope.Failure.missingHeader) { try SentryEnvelope.read(Self.bytes("\n{\"type\":\"event\"}\n{}")) }
        #expect(throws: SentryEnvelope.Failure.headerNotJSON) { try SentryEnvelope.read(Self.bytes("not json\n")) }
        #expect(throws: SentryEnvelope.Failure.headerNotJSON) { try SentryEnvelope.read(Self.bytes("[1,2]\n")) }
    }

    @Test func anItemHeaderThatIsNotJSONIsSkippedAndTheRestKept() throws {
        let body = Self.bytes(
            "{}\n" + "{type: event}\n" + #"{"type":"event","length":2}"# + "\n{}\n")
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.items.map(\.type) == ["event"])
        #expect(envelope.problemCount == 1)
    }

    @Test func aWrongLengthDropsItsItemAndReadingResumesAtTheNextLine() throws {
        // Declares 5 bytes of a 16-byte payload: the item is dropped, the next one is kept.
        let body = Self.bytes(
            "{}\n" + #"{"type":"event","length":5}"# + "\n" + #"{"message":"a"}"# + "\n" + #"{"type":"event"}"#
                + "\n" + #"{"message":"b"}"# + "\n")
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.items.count == 1)
        #expect(Array(envelope.items[0].payload) == Self.bytes(#"{"message":"b"}"#))
        #expect(envelope.problemCount == 1)
    }

    @Test func aLengthPastTheEndCostsNothingAndKeepsWhatCameBefore() throws {
        let body = Self.bytes(
            "{}\n" + #"{"type":"event","length":2}"# + "\n{}\n" + #"{"type":"event","length":100000000}"# + "\nshort")
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.items.count == 1)
        #expect(envelope.problems.keys.contains { $0.contains("100000000") })
    }

    @Test func aNegativeOrNonNumericLengthIsSkipped() throws {
        let body = Self.bytes(
            "{}\n" + #"{"type":"event","length":-4}"# + "\n" + #"{"type":"event","length":"x"}"# + "\n"
                + #"{"type":"event","length":true}"# + "\n")
        let envelope = try SentryEnvelope.read(body)
        #expect(envelope.items.isEmpty)
        #expect(envelope.problemCount == 3)
    }

    @Test func tenThousandItemsKeepTheFirstThousandAndCountTheRest() throws {
        var text = "{}\n"
        for _ in 0..<10_000 { text += #"{"type":"session","length":2}"# + "\n{}\n" }
        let envelope = try SentryEnvelope.read(Self.bytes(text))
        #expect(envelope.items.count == SentryEnvelope.maximumItems)
        #expect(envelope.problemCount == 10_000 - SentryEnvelope.maximumItems)
    }

    @Test func invalidUTF8InAPayloadIsRepairedNotLost() throws {
        var body = Self.bytes("{}\n" + #"{"type":"event"}"# + "\n" + #"{"message":"caf"#)
        body += [0xC3, 0x28]  // an invalid two-byte sequence
        body += Self.bytes(#""}"# + "\n")
        let envelope = try SentryEnvelope.read(body)
        let object = try #require(SentryJSON.object(envelope.items[0].payload))
        let message = try #require(object["message"] as? String)
        #expect(message.hasPrefix("caf"))
        #expect(message.contains("\u{FFFD}"))
    }

    @Test func deeplyNestedJSONIsRefusedByTheParserNotTheStack() {
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let payload = Self.bytes(#"{"contexts":"# + nested + "}")
        #expect(SentryJSON.object(payload[...]) == nil)
    }
}

/// The fuzz target's seed corpus decodes as the target expects: each seed is a whole request that yields events.
struct SentryFuzzSeedTests {
    static func seeds() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzSentry")
        return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted().map { url.appendingPathComponent($0).path }
    }

    @Test(arguments: try SentryFuzzSeedTests.seeds())
    func aSeedDecodesIntoEvents(_ path: String) throws {
        let data = try #require(FileManager.default.contents(atPath: path))
        let selector = try #require(data.first)
        let paths = ["/api/1/envelope/", "/api/1/store/", "/stream", "/api/1/envelope/"]
        let answer = SentryRequestDecoder().decode(
            path: paths[Int(selector & 3)], headers: selector & 4 == 0 ? [] : [("Content-Encoding", "gzip")],
            body: Array(data.dropFirst()))
        #expect(answer.status == 200, "\(answer.problem ?? "")")
        #expect(!answer.events.isEmpty)
        #expect(answer.problem == nil)
    }
}
