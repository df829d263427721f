import Foundation
import Testing

@testable import ErrorWatchWire

/// The writer's JSON strings: escapes exactly where JSON needs them, bytes copied as they are everywhere else.
struct WireStringEscapingTests {
    private func written(_ text: String) -> String {
        var out: [UInt8] = []
        WireEvent.writeString(text, &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(written("") == #""""#)
        #expect(written("plain") == #""plain""#)
        #expect(written(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(written("\n\r\t\u{0}\u{1F}") == #""\n\r\t\u0000\u001f""#)
        #expect(written("\"start and end\\") == #""\"start and end\\""#)
        #expect(written("é ✓ 🧯 \u{7F}") == "\"é ✓ 🧯 \u{7F}\"")
    }

    /// Every scalar below 0x80 in every position reads back unchanged through a standard JSON parser.
    @Test func everyASCIICharacterReadsBackThroughJSONDecoder() throws {
        for value in 0..<0x80 {
            let character = String(UnicodeScalar(UInt8(value)))
            for text in [character, "x\(character)", "\(character)y", "x\(character)y\(character)\(character)z"] {
                let decoded = try JSONDecoder().decode(String.self, from: Data(written(text).utf8))
                #expect(decoded == text, "\(value)")
            }
        }
    }
}
