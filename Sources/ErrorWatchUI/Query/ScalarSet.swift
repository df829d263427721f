/// A class of Unicode scalars for ``LinearRegex``: ranges and named classes, maybe negated, matched ignoring case.
struct ScalarSet: Sendable, Equatable {
    /// A named class.
    enum Named: Sendable, Equatable {
        case digit, word, whitespace
    }

    /// Scalar ranges, as written.
    var ranges: [ClosedRange<Unicode.Scalar>] = []
    /// Classes inside this one (`[\d_]`), each maybe negated itself.
    var sets: [ScalarSet] = []
    /// A named class, for the sets `\d`, `\w`, `\s` stand for.
    var named: Named?
    /// Whether the set matches what the rest does not (`[^…]`, `\D`).
    var negated = false

    /// `\d`: decimal digits, as Unicode has them.
    static let digits = ScalarSet(named: .digit)
    /// `\w`: letters, marks, digits and the connector `_`.
    static let word = ScalarSet(named: .word)
    /// `\s`: white space, newlines included.
    static let whitespace = ScalarSet(named: .whitespace)

    /// The same set, negated.
    var inverted: ScalarSet {
        var copy = self
        copy.negated.toggle()
        return copy
    }

    /// Whether `scalar` is in the set, in any case: the set's own members are matched in any case first, then the
    /// negation applies (`[^a]` matches neither `a` nor `A`).
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let found =
            includes(scalar) || includes(CaseFold.fold(scalar)) || includes(CaseFold.upper(scalar))
        return found != negated
    }

    /// Whether `scalar` is among the members, before negation.
    private func includes(_ scalar: Unicode.Scalar) -> Bool {
        var found = false
        if let named {
            switch named {
            case .digit: found = scalar.properties.numericType == .decimal
            case .word: found = Self.isWord(scalar)
            case .whitespace: found = scalar.properties.isWhitespace
            }
        }
        if !found { found = ranges.contains { $0.contains(scalar) } }
        if !found { found = sets.contains { $0.contains(scalar) } }
        return found
    }

    /// Whether `scalar` is a word character (`\w`, `\b`).
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 48 && value <= 57) || (value >= 65 && value <= 90) || (value >= 97 && value <= 122)
                || value == 95
        }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType == .decimal
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .connectorPunctuation
    }
}

/// Case folding for ``LinearRegex``, one scalar at a time, with an ASCII fast path.
enum CaseFold {
    /// `scalar` in lower case, when that is one scalar; else `scalar`.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            let value = scalar.value
            return value >= 65 && value <= 90 ? Unicode.Scalar(UInt8(value + 32)) : scalar
        }
        return single(scalar.properties.lowercaseMapping) ?? scalar
    }

    /// `scalar` in upper case, when that is one scalar; else `scalar`.
    static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            let value = scalar.value
            return value >= 97 && value <= 122 ? Unicode.Scalar(UInt8(value - 32)) : scalar
        }
        return single(scalar.properties.uppercaseMapping) ?? scalar
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
