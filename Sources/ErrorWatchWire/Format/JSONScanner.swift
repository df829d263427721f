/// A small JSON reader for one wire line: the top-level object's members, flat values, and skipping the rest.
///
/// Foundation's `JSONDecoder` spends about 15 µs on a 450-byte event; the listener must decode 200,000 events
/// a second on two cores. This scanner reads a line in one pass without building a tree: every member of the
/// top-level object is handed to a callback; nested values the format does not use are syntax-checked and
/// skipped. The caller has checked UTF-8.
///
/// Two callbacks: ``scanObject(_:)`` hands each member over as a `String` key and a ``Value``, strings decoded;
/// ``scanFields(_:)`` hands them over as ``Field``s, a string without escapes (nearly all of them) as where it lies
/// in the line, so that a caller makes a `String` only of the members it keeps (the wire decoder's hot path).
package struct JSONScanner {
    /// A member's value, as far as the wire format cares.
    package enum Value {
        case string(String)
        /// A number, as the byte range of its text in the line.
        case number(Range<Int>)
        case bool(Bool)
        case null
        /// An object whose members are all strings (the shape of `attributes`).
        case stringMap([String: String])
        /// An array of at most ``maximumArrayStrings`` strings (the shape of `handling.path`).
        case stringArray([String])
        /// Another array, or an object with a non-string member: valid JSON the wire format has no use for, as
        /// the byte range of its text in the line (the log-shape reader scans such nested objects again).
        case other(Range<Int>)
    }

    /// A member's key or value as ``scanFields(_:)`` hands it over: a string's text is not copied until asked for.
    package enum Field {
        /// A string without escapes, as the byte range between its quotes.
        case text(Range<Int>)
        /// A string with escapes, decoded (rare: a quote, a backslash, a newline or a `\u` in the text).
        case escapedText(String)
        /// Any other value.
        case value(Value)
    }

    /// The most strings a ``Value/stringArray(_:)`` holds; a longer array is scanned for syntax only and is
    /// ``Value/other``.
    package static let maximumArrayStrings = 64

    package struct SyntaxError: Error {
        package var message: String
        package var offset: Int
    }

    package let bytes: UnsafeRawBufferPointer
    package private(set) var index = 0

    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads `{ "key": value, … }` followed by nothing but whitespace, calling `member` for each member.
    package mutating func scanObject(_ member: (String, Value) throws(SyntaxError) -> Void) throws(SyntaxError) {
        let bytes = bytes
        try scanFields { key, value throws(SyntaxError) in
            try member(Self.string(key, in: bytes), Self.value(value, in: bytes))
        }
    }

    /// Reads `{ "key": value, … }` followed by nothing but whitespace, calling `member` for each member's key (a
    /// ``Field/text(_:)`` or ``Field/escapedText(_:)``) and value, strings left in the line.
    package mutating func scanFields(_ member: (Field, Field) throws(SyntaxError) -> Void) throws(SyntaxError) {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let key = try stringField()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                try member(key, try field(depth: 1))
                skipWhitespace()
                guard let next = peek() else { throw fail("unterminated object") }
                index += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw fail("expected , or }") }
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the object") }
    }

    /// Whether the whole line is one JSON value of any kind.
    package mutating func isValidValue() -> Bool {
        skipWhitespace()
        guard (try? value(depth: 1)) != nil else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    /// A string field's text: `""` for anything else (keys are always strings).
    package static func string(_ field: Field, in bytes: UnsafeRawBufferPointer) -> String {
        switch field {
        case .text(let range): String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .escapedText(let text): text
        case .value: ""
        }
    }

    /// A field as a ``Value``, its string decoded.
    package static func value(_ field: Field, in bytes: UnsafeRawBufferPointer) -> Value {
        if case .value(let value) = field { value } else { .string(string(field, in: bytes)) }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> Value {
        Self.value(try field(depth: depth), in: bytes)
    }

    private mutating func field(depth: Int) throws(SyntaxError) -> Field {
        guard depth <= 64 else { throw fail("nested too deeply") }
        guard let byte = peek() else { throw fail("expected a value") }
        switch byte {
        case UInt8(ascii: "\""): return try stringField()
        case UInt8(ascii: "{"): return .value(try object(depth: depth))
        case UInt8(ascii: "["): return .value(try array(depth: depth))
        case UInt8(ascii: "t"):
            try literal("true")
            return .value(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return .value(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return .value(.null)
        default: return .value(.number(try number()))
        }
    }

    /// An array: its strings, while every element is one and there are at most ``maximumArrayStrings``; once that
    /// fails, the rest is only syntax-checked, so a huge or mixed array never grows memory.
    private mutating func array(depth: Int) throws(SyntaxError) -> Value {
        let start = index
        index += 1
        var strings: [String]? = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .stringArray([])
        }
        while true {
            skipWhitespace()
            let element = try value(depth: depth + 1)
            if case .string(let text) = element, let count = strings?.count, count < Self.maximumArrayStrings {
                strings?.append(text)
            } else {
                strings = nil
            }
            skipWhitespace()
            guard let next = peek() else { throw fail("unterminated array") }
            index += 1
            if next == UInt8(ascii: "]") { return strings.map(Value.stringArray) ?? .other(start..<index) }
            guard next == UInt8(ascii: ",") else { throw fail("expected , or ]") }
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> Value {
        let start = index
        index += 1
        var map: [String: String]? = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .stringMap([:])
        }
        while true {
            skipWhitespace()
            let key = Self.string(try stringField(), in: bytes)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if case .string(let text) = try value(depth: depth + 1) { map?[key] = text } else { map = nil }
            skipWhitespace()
            guard let next = peek() else { throw fail("unterminated object") }
            index += 1
            if next == UInt8(ascii: "}") { return map.map(Value.stringMap) ?? .other(start..<index) }
            guard next == UInt8(ascii: ",") else { throw fail("expected , or }") }
        }
    }

    /// A string: its range when it has no escapes, else its decoded text.
    private mutating func stringField() throws(SyntaxError) -> Field {
        try expect(UInt8(ascii: "\""))
        // The loop keeps its position in a local, not in `index`: the line's hot loop.
        let (bytes, start) = (bytes, index)
        var position = start
        while true {
            // Eight bytes at a time while none of them ends the plain text.
            while position &+ 8 <= bytes.count,
                !Self.holdsQuoteBackslashOrControl(bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            {
                position &+= 8
            }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return .text(start..<position)
            }
            if byte == UInt8(ascii: "\\") {
                index = position
                return .escapedText(try escapedString(from: start))
            }
            guard byte >= 0x20 else {
                index = position
                throw fail("control character in a string")
            }
            position += 1
        }
        index = position
        throw fail("unterminated string")
    }

    /// Whether any of the eight bytes in `word` is a control character (below 0x20), `"` or `\`: what ends a string's
    /// plain text for the reader, and what the writer must escape. Bytes of 0x80 and above (UTF-8 beyond ASCII)
    /// never are. The classic word-at-a-time tests: a byte below `n` leaves its high bit set in `(x - n) & ~x`, and a
    /// byte equal to `c` is a zero byte of `x ^ c`.
    @inline(__always)
    package static func holdsQuoteBackslashOrControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let below = (word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones)
        return below & ~word & highs != 0
    }

    /// The slow path for strings with escapes: decodes from `start` (just after the opening quote).
    private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
        var utf8 = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = peek() else { throw fail("unterminated escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), peek() == UInt8(ascii: "\\"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    utf8.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: throw fail("invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw fail("control character in a string") }
                utf8.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(SyntaxError) -> Range<Int> {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        let first = index
        let count = digits()
        guard count > 0 else { throw fail("expected a value") }
        guard count == 1 || bytes[first] != UInt8(ascii: "0") else { throw fail("leading zero in a number") }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected digits after .") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected exponent digits") }
        }
        return start..<index
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("expected a value") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw fail("expected a value") }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws(SyntaxError) {
        guard peek() == byte else { throw fail("expected \(Character(Unicode.Scalar(byte)))") }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func fail(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }
}
