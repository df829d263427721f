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
        let upper = Character(domain.uppercased())
        self.domain = (upper.isASCII && upper.isLetter) ? upper : "X"
        self.number = max(0, number)
    }

    /// Parses `"N-503"` (also `"n503"`); `nil` when the text is not a letter followed by digits.
    public init?(parsing text: String) {
        var rest = Substring(text)
        guard let first = rest.first, first.isASCII, first.isLetter else { return nil }
        rest = rest.dropFirst()
        if rest.first == "-" { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 9, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(rest) else {
            return nil
        }
        self.init(first, n)
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
