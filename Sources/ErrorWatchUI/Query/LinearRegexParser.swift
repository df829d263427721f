/// A pattern as a tree, before it is compiled for ``LinearRegex``.
indirect enum LinearRegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    case anyButNewline
    case set(ScalarSet)
    case assertion(LinearRegex.Assertion)
    case concatenation([LinearRegexNode])
    case alternation([LinearRegexNode])
    case group(LinearRegexNode)
    /// `node{minimum,maximum}` (`maximum` nil: unbounded); `lazy` prefers fewer.
    case repetition(LinearRegexNode, minimum: Int, maximum: Int?, lazy: Bool)
}

/// Reads a pattern into a ``LinearRegexNode``. Syntax errors are not its business (Swift's `Regex` has checked the
/// pattern first and given its words); it refuses, in a few words, what a linear-time engine cannot do.
struct LinearRegexParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// The largest count a `{n,m}` may give.
    static let maximumCount = 1_000

    mutating func parse() throws(LinearRegex.Unsupported) -> LinearRegexNode {
        let node = try alternation()
        guard index == scalars.count else { throw unsupported("unbalanced ')'") }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func unsupported(_ what: String) -> LinearRegex.Unsupported {
        LinearRegex.Unsupported(description: what)
    }

    private mutating func alternation() throws(LinearRegex.Unsupported) -> LinearRegexNode {
        var branches = [try concatenation()]
        while peek == "|" {
            index += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(LinearRegex.Unsupported) -> LinearRegexNode {
        var items: [LinearRegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            items.append(try quantified(try atom()))
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concatenation(items)
    }

    private mutating func quantified(_ atom: LinearRegexNode) throws(LinearRegex.Unsupported) -> LinearRegexNode {
        var node = atom
        while let scalar = peek {
            let bounds: (Int, Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try counts() else { return node }
                bounds = counted
            default: return node
            }
            if scalar != "{" { index += 1 }
            var lazy = false
            if peek == "?" {
                lazy = true
                index += 1
            } else if peek == "+" {
                throw unsupported("possessive quantifiers are not supported")
            }
            if case .assertion = node { continue }  // repeating a zero-width test changes nothing
            node = .repetition(node, minimum: bounds.0, maximum: bounds.1, lazy: lazy)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}` (`{,m}` too), or `nil` (and nothing read) when the brace is a literal.
    private mutating func counts() throws(LinearRegex.Unsupported) -> (Int, Int?)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                let digit = Int(scalars[cursor].value - 48)
                value = min((value ?? 0) * 10 + digit, Self.maximumCount + 1)
                cursor += 1
            }
            return value
        }
        let low = number()
        var high: Int?? = .some(low)
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            high = .some(number())
        }
        guard cursor < scalars.count, scalars[cursor] == "}", low != nil || high != .some(nil) else { return nil }
        index = cursor + 1
        let minimum = low ?? 0
        let maximum = high ?? nil
        if minimum > Self.maximumCount || (maximum ?? 0) > Self.maximumCount {
            throw unsupported("counts above \(Self.maximumCount) are not supported")
        }
        return (minimum, maximum)
    }

    private mutating func atom() throws(LinearRegex.Unsupported) -> LinearRegexNode {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case ".": return .anyButNewline
        case "^": return .assertion(.startOfText)
        case "$": return .assertion(.endOfText)  // as in Swift: the end of the text, not before a final newline
        case "[": return .set(try set())
        case "(": return try group()
        case "\\": return try escape(inSet: false).node
        default: return .scalar(scalar)
        }
    }

    private mutating func group() throws(LinearRegex.Unsupported) -> LinearRegexNode {
        if peek == "?" {
            index += 1
            switch peek {
            case ":": index += 1
            case "<" where index + 1 < scalars.count && (scalars[index + 1] == "=" || scalars[index + 1] == "!"):
                throw unsupported("lookbehind is not supported")
            case "<", "P", "'":
                // A named group: its name is skipped; groups only group here.
                if peek == "P" { index += 1 }
                let close: Unicode.Scalar = peek == "'" ? "'" : ">"
                while let scalar = peek, scalar != close { index += 1 }
                index += 1
            case "=", "!": throw unsupported("lookahead is not supported")
            case ">": throw unsupported("atomic groups are not supported")
            default:
                // Options such as `(?i)` or `(?i:…)`: matching ignores case already, and other options are refused.
                var options = ""
                while let scalar = peek, scalar != ")", scalar != ":" {
                    options.unicodeScalars.append(scalar)
                    index += 1
                }
                guard options.unicodeScalars.allSatisfy({ $0 == "i" }) else {
                    throw unsupported("the option (?\(options)) is not supported")
                }
                if peek == ")" {
                    index += 1
                    return .empty
                }
                index += 1
            }
        }
        let inner = try alternation()
        guard peek == ")" else { throw unsupported("expected ')'") }
        index += 1
        return .group(inner)
    }

    /// A backslash escape, as a node or, in a class, as the set it adds.
    private mutating func escape(inSet: Bool) throws(LinearRegex.Unsupported) -> (node: LinearRegexNode, set: ScalarSet?)
    {
        guard let scalar = peek else { throw unsupported("trailing backslash") }
        index += 1
        switch scalar {
        case "d": return (.set(.digits), .digits)
        case "D": return (.set(ScalarSet.digits.inverted), ScalarSet.digits.inverted)
        case "w": return (.set(.word), .word)
        case "W": return (.set(ScalarSet.word.inverted), ScalarSet.word.inverted)
        case "s": return (.set(.whitespace), .whitespace)
        case "S": return (.set(ScalarSet.whitespace.inverted), ScalarSet.whitespace.inverted)
        case "n": return (.scalar("\n"), nil)
        case "t": return (.scalar("\t"), nil)
        case "r": return (.scalar("\r"), nil)
        case "f": return (.scalar("\u{0C}"), nil)
        case "v": return (.scalar("\u{0B}"), nil)
        case "e": return (.scalar("\u{1B}"), nil)
        case "0": return (.scalar("\u{0}"), nil)
        case "b" where !inSet: return (.assertion(.wordBoundary), nil)
        case "B" where !inSet: return (.assertion(.notWordBoundary), nil)
        case "A" where !inSet: return (.assertion(.startOfText), nil)
        case "z" where !inSet: return (.assertion(.endOfText), nil)
        case "Z" where !inSet: return (.assertion(.endOfTextOrFinalNewline), nil)
        case "x", "u":
            return (.scalar(try hexScalar()), nil)
        case "1"..."9", "k", "g":
            throw unsupported("backreferences are not supported")
        case "p", "P":
            throw unsupported("\\\(scalar){…} classes are not supported")
        default:
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                throw unsupported("the escape \\\(scalar) is not supported")
            }
            return (.scalar(scalar), nil)  // an escaped punctuation mark stands for itself
        }
    }

    /// `\xHH`, `\x{H…}`, `\uHHHH` or `\u{H…}` (the letter already read).
    private mutating func hexScalar() throws(LinearRegex.Unsupported) -> Unicode.Scalar {
        var digits = ""
        if peek == "{" {
            index += 1
            while let scalar = peek, scalar != "}" {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            index += 1
        } else {
            let count = scalars[index - 1] == "x" ? 2 : 4
            for _ in 0..<count {
                guard let scalar = peek else { break }
                digits.unicodeScalars.append(scalar)
                index += 1
            }
        }
        guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw unsupported("invalid hexadecimal escape")
        }
        return scalar
    }

    private mutating func set() throws(LinearRegex.Unsupported) -> ScalarSet {
        var result = ScalarSet()
        if peek == "^" {
            result.negated = true
            index += 1
        }
        var first = true
        while let scalar = peek, scalar != "]" || first {
            first = false
            index += 1
            let low: Unicode.Scalar
            if scalar == "\\" {
                let escaped = try escape(inSet: true)
                if let set = escaped.set {
                    result.sets.append(set)
                    continue
                }
                guard case .scalar(let value) = escaped.node else { continue }
                low = value
            } else if scalar == "[", peek == ":" {
                throw unsupported("POSIX classes [[:…:]] are not supported")
            } else {
                low = scalar
            }
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                var high = scalars[index]
                index += 1
                if high == "\\" {
                    guard case .scalar(let value) = try escape(inSet: true).node else {
                        throw unsupported("a class range ends in a class")
                    }
                    high = value
                }
                guard low <= high else { throw unsupported("invalid class range") }
                result.ranges.append(low...high)
            } else {
                result.ranges.append(low...low)
            }
        }
        guard peek == "]" else { throw unsupported("expected ']'") }
        index += 1
        return result
    }
}
