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

    /// The writer checks eight bytes at a time: each character that needs an escape is found at every offset of a
    /// long string, beside multi-byte UTF-8, exactly as a character-by-character escaper finds it.
    @Test func escapesAreFoundAtEveryOffsetOfLongStrings() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += #"\""#
                case "\\": out += #"\\"#
                case "\n": out += #"\n"#
                case "\r": out += #"\r"#
                case "\t": out += #"\t"#
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let fillers = ["abcdefghijklmnopqrstuvwxyz0123456789", "é✓🧯ü€abcdefghijklmnop\u{7F}\u{80}"]
        for special in (0..<0x20).map({ Character(UnicodeScalar(UInt8($0))) }) + ["\"", "\\", " ", "~"] {
            for filler in fillers {
                let characters = Array(filler)
                for offset in 0...characters.count {
                    var text = characters
                    text.insert(special, at: offset)
                    let string = String(text)
                    #expect(written(string) == reference(string), "\(special.unicodeScalars.first!.value) at \(offset)")
                }
            }
        }
    }
}
