import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// `exception.report`: an error's ``ExceptionReport`` on the wire, so a recording keeps what a Sentry SDK sent. Both
/// readers (the scanner and `Codable`) read what both writers write, lines without it read as before, and a report
/// that is not one is refused by name.
struct ExceptionReportMemberTests {
    static let report = ExceptionReport(
        exceptions: [
            .init(
                type: "InventoryError", value: "shelf \"north\" is empty\n", module: "shop.stock", mechanism: "threading",
                handled: false,
                frames: [
                    .init(function: "run", module: "threading", file: "threading.py", line: 982, inApp: false),
                    .init(
                        function: "restock", module: "shop.stock", file: "shop/stock.py", line: 33, column: 5,
                        inApp: true, preContext: ["def restock(run):", "    shelf = 'north'"],
                        contextLine: "    raise InventoryError(shelf)", postContext: ["", "# end"],
                        variables: [.init("shelf", "'north'"), .init("count", "3")]),
                ], framesOmitted: 7),
            .init(type: "KeyError", value: "'sku'"),
        ],
        tags: [.init("run", "a1"), .init("région", "eu-1 ✓")],
        contexts: [.init("runtime", [.init("name", "CPython")]), .init("empty", [])],
        user: [.init("email", "ada@example.com")], request: [.init("headers.Cookie", "[not kept]")],
        breadcrumbs: [
            .init(
                timestamp: Date(timeIntervalSince1970: 1_795_630_459.5), category: "auth", level: "info",
                message: "signed in", data: [.init("user", "ada")]),
            .init(message: "no time"),
        ],
        about: [.init("platform", "python")], cut: ["frames: kept the first 50 and last 200 of 257"])

    static var event: WireEvent {
        var event = WireEvent(
            kind: .error, time: Date(timeIntervalSince1970: 1_795_630_460), exceptionType: "InventoryError",
            traceID: "a4a8df4141a14af9b93407bb7f4ce3e9", fingerprint: "sentry:InventoryError")
        event.report = report
        return event
    }

    @Test func bothReadersReadWhatBothWritersWrite() throws {
        let line = try WireEncoder().encode(Self.event)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        let scanned = try WireDecoder().decode(line)
        #expect(scanned == Self.event)
        #expect(scanned.report == Self.report)
        let decoded = try JSONDecoder().decode(WireEvent.self, from: Data(line))
        #expect(decoded == Self.event)
        let viaCodable = try JSONEncoder().encode(Self.event)
        #expect(try WireDecoder().decode(Array(viaCodable)) == Self.event)
        // The remote error an error event becomes carries it to the detail view.
        #expect(RemoteError(scanned)?.report == Self.report)
    }

    @Test func theReportIsCompactAndNamedAsDocumented() throws {
        let text = String(decoding: try WireEncoder().encode(Self.event), as: UTF8.self)
        // Members sorted by name, so the same report is always the same line.
        #expect(text.contains(#","exception.report":{"about":[["platform","python"]],"breadcrumbs":[{"category":"auth""#))
        #expect(text.contains(#""vars":[["shelf","'north'"],["count","3"]]"#))
        #expect(text.contains(#""frames_omitted":7"#))
        #expect(text.contains(#""timestamp":1795630459.5"#))
        // Unknown stays out: the second exception has no frames, module or mechanism.
        #expect(text.contains(#"{"type":"KeyError","value":"'sku'"}"#))
    }

    @Test func linesWithoutAReportReadAsBefore() throws {
        let old = #"{"v":1,"kind":"error","time":"2026-11-25T18:14:19Z","exception.type":"E","exception.report":null}"#
        #expect(try WireDecoder().decode(Array(old.utf8)).report == nil)
        let none = #"{"v":1,"kind":"error","time":"2026-11-25T18:14:19Z","exception.type":"E"}"#
        #expect(try WireDecoder().decode(Array(none.utf8)).report == nil)
        #expect(try JSONDecoder().decode(WireEvent.self, from: Data(none.utf8)).report == nil)
        var event = try WireDecoder().decode(Array(none.utf8))
        event.report = nil
        #expect(!String(decoding: try WireEncoder().encode(event), as: UTF8.self).contains("exception.report"))
    }

    @Test(arguments: [
        (#"{}"#, true), (#"{"future":"x"}"#, true), (#"{"future":{"a":[1]},"tags":[]}"#, true),
        (#""a report""#, false), (#"[]"#, false), (#"{"cut":"x"}"#, false), (#"{"tags":[["a"]]}"#, false),
        (#"{"tags":[["a","b","c"]]}"#, false), (#"{"exceptions":[{"frames":[{"line":"7"}]}]}"#, false),
        (#"{"breadcrumbs":[{"timestamp":"yesterday"}]}"#, false), (#"{"contexts":[{"fields":[]}]}"#, false),
    ])
    func aReportThatIsNotOneIsRefusedByNameByBothReaders(json: String, valid: Bool) throws {
        let line = #"{"v":1,"kind":"error","time":"2026-11-25T18:14:19Z","exception.type":"E","exception.report":\#(json)}"#
        if valid {
            #expect(try WireDecoder().decode(Array(line.utf8)).report == ExceptionReport())
            #expect(try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8)).report == ExceptionReport())
        } else {
            #expect(throws: WireError.invalidField("exception.report")) { try WireDecoder().decode(Array(line.utf8)) }
            #expect(throws: WireError.invalidField("exception.report")) {
                try JSONDecoder().decode(WireEvent.self, from: Data(line.utf8))
            }
        }
    }
}
