/// A stable code for an error, a domain letter and a number, printed like `N-503`.
///
/// Codes are what a user reads out to support and what a server log shows, so they never change
/// meaning once published. The domain letter groups codes by area (`N` network, `A` auth, `B` bug…).
///
/// ```swift
/// let code: ErrorCode = "N-503"
/// code.domain   // "N"
/// code.number   // 503
/// ```
public struct ErrorCode: Sendable, Hashable, Comparable, CustomStringConvertible, Codable,
    ExpressibleByStringLiteral
{
    /// The domain letter, an uppercase ASCII letter.
    public let domain: Character
    /// The number within the domain, 0 or more.
    public let number: Int

    /// Creates a code. A domain that is not an ASCII letter becomes `X`; it is uppercased; a negative number becomes 0.
    public init(_ domain: Character, _ number: Int) {
        self.init(asciiDomain: domain.asciiValue ?? UInt8(ascii: "X"), number: number)
    }

    /// A code from an ASCII byte: a letter is uppercased, anything else becomes `X`.
    private init(asciiDomain byte: UInt8, number: Int) {
        let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
        self.domain = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(upper) ? Character(UnicodeScalar(upper)) : "X"
        self.number = max(0, number)
    }

    /// Parses `"N-503"` (also `"n503"`); `nil` when the text is not a letter followed by digits.
    ///
    /// Codes are often computed properties written as literals (`var code: ErrorCode { "N-503" }`), so this runs
    /// for every error classified: it reads UTF-8 bytes and allocates nothing.
    public init?(parsing text: String) {
        var text = text
        let parsed: (domain: UInt8, number: Int)? = text.withUTF8 { bytes in
            guard let first = bytes.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first & 0xDF) else {
                return nil
            }
            var index = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = bytes.count - index
            guard (1...9).contains(digits) else { return nil }
            var number = 0
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                number = number * 10 + Int(digit)
                index += 1
            }
            return (first, number)
        }
        guard let parsed else { return nil }
        self.init(asciiDomain: parsed.domain, number: parsed.number)
    }

    /// A literal must parse (`"N-503"`); a malformed literal is a programming error.
    public init(stringLiteral value: String) {
        guard let code = ErrorCode(parsing: value) else {
            preconditionFailure(
                "malformed ErrorCode literal \(value.debugDescription); expected a letter and digits like N-503")
        }
        self = code
    }

    /// `"N-503"`.
    public var description: String { "\(domain)-\(number)" }

    public static func < (lhs: ErrorCode, rhs: ErrorCode) -> Bool {
        (lhs.domain, lhs.number) < (rhs.domain, rhs.number)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = ErrorCode(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an error code like N-503: \(text.debugDescription)")
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
