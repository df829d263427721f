import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// The hand-written reader and writer agree with Foundation's `JSONDecoder`/`JSONEncoder` on the format.
struct JSONScannerTests {
    static let tricky = WireEvent(
        kind: .error, time: WireFormatTests.time, serviceName: "sh\"op\\", pid: -3, source: "a/b",
        exceptionType: "Ünïcode.Error 🚀", exceptionMessage: "line1\nline2\t\u{01}end", code: "X-0",
        attributes: ["z": "1", "a": "\"quoted\"", "é": "ß"])

    @Test func fastWriterOutputDecodesWithJSONDecoder() throws {
        for event in [Self.tricky, WireFormatTests.checkoutFailure] {
            var line = try WireEncoder().encode(event)
            line.removeLast()
            #expect(try JSONDecoder().decode(WireEvent.self, from: Data(line)) == event)
        }
    }

    @Test func jsonEncoderOutputDecodesWithTheFastReader() throws {
        for event in [Self.tricky, WireFormatTests.checkoutFailure] {
            let data = try JSONEncoder().encode(event)
            #expect(try WireDecoder().decode(Array(data)) == event)
        }
    }

    @Test func escapesNestedUnknownValuesAndNullsAreHandled() throws {
        let line = #"""
            { "v" : 1, "kind":"log", "time":"2026-11-22T00:40:00Z", "body":"caf\u00e9 \ud83d\ude80 \/ \"q\"",
              "unknown":{"deep":[1,-2.5e3,true,false,null,{"x":"y"}]}, "source":null, "attempt":null,
              "attributes":{"k":"v"} }
            """#
        let event = try WireDecoder().decode(Array(line.replacingOccurrences(of: "\n", with: " ").utf8))
        #expect(event.body == "café 🚀 / \"q\"")
        #expect(event.source == nil && event.attempt == nil)
        #expect(event.attributes == ["k": "v"])
    }

    @Test(arguments: [
        #"{"v":1,"kind":"log","time":"2026-11-22T00:40:00Z","body":"x"} trailing"#,
        #"{"v":1,,}"#, #"{"v":01}"#, #"{"v":1"#, #"{"v":"1\x"}"#, #"{v:1}"#, #"{"v":tru}"#, "{\"v\":\"a\u{01}\"}",
    ])
    func syntaxErrorsAreMalformedJSON(line: String) {
        let result = Result { () throws(WireError) in try WireDecoder().decode(Array(line.utf8)) }
        guard case .failure(.malformedJSON) = result else {
            Issue.record("expected malformed JSON, got \(result)")
            return
        }
    }

    /// The reader looks for a string's end eight bytes at a time: an escape, a quote or a control character is
    /// found wherever it falls in a word, and a string that ends mid-word ends there.
    @Test func aStringEndsOrEscapesAtEveryOffsetOfAWord() throws {
        let base = #"{"v":1,"kind":"log","time":"2026-11-22T00:40:00Z","body":""#
        let specials = [(#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), (#"\u00e9"#, "é")]
        for length in 0..<20 {
            let plain = String(repeating: "a", count: length)
            #expect(try WireDecoder().decode(Array((base + plain + #""}"#).utf8)).body == plain)
            for offset in 0...length {
                let (head, tail) = (String(plain.prefix(offset)), String(plain.dropFirst(offset)))
                for (written, meant) in specials {
                    let line = Array((base + head + written + tail + #""}"#).utf8)
                    #expect(try WireDecoder().decode(line).body == head + meant + tail)
                }
                let control = Array((base + head + "\u{01}" + tail + #""}"#).utf8)
                let message = "control character in a string at byte \(base.utf8.count + offset)"
                #expect(throws: WireError.malformedJSON(message)) { try WireDecoder().decode(control) }
            }
        }
    }

    /// A key is matched to its member from its bytes; an escaped key is decoded first.
    @Test func keysAreMatchedFromTheirBytesAndEscapedKeysStillMatch() throws {
        for member in WireMember.allCases {
            let bytes = Array(member.name.utf8)
            #expect(bytes.withUnsafeBytes { WireMember(utf8: $0) } == member)
            var other = bytes
            other[other.count - 1] ^= 0x20
            #expect(other.withUnsafeBytes { WireMember(utf8: $0) } == nil)
        }
        let line = #"{"\u0076":1,"kind":"log","t\u0069me":"2026-11-22T00:40:00Z","body":"b","sour\u0063e":"s"}"#
        let event = try WireDecoder().decode(Array(line.utf8))
        #expect(event.source == "s" && event.body == "b")
    }

    @Test func wrongTypesAreInvalidFields() {
        let base = #"{"v":1,"kind":"error","time":"2026-11-22T00:40:00Z","exception.type":"E","#
        let cases = [
            (#""process.pid":"12"}"#, "process.pid"), (#""attempt":1.5}"#, "attempt"),
            (#""attributes":{"n":1}}"#, "attributes"), (#""sequence":-1}"#, "sequence"),
            (#""severity":"loud"}"#, "severity"), (#""severity_text":7}"#, "severity_text"),
            (#""origin":"martian"}"#, "origin"), (#""error.category":"odd"}"#, "error.category"),
        ]
        for (tail, key) in cases {
            #expect(throws: WireError.invalidField(key)) { try WireDecoder().decode(Array((base + tail).utf8)) }
        }
    }
}
