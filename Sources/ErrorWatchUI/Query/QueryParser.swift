import ErrorStreaming

/// Turns a query's text into clauses, or into the first problem with its position.
///
/// The text is read as `Character`s, so positions count what the user sees (`é` is one, however it is encoded).
/// Terms are separated by whitespace; a quoted phrase or a regex ends at its closing delimiter, so `"a"b` is the
/// phrase `a` and the word `b`. A `-` before a term excludes it; a lone `-` is the word `-`. A quote or slash inside
/// a word is literal (`it"s`, `a/b`), and so is a colon after anything but letters (`12:30`).
struct QueryParser {
    /// The field names, in the order errors list them.
    static let fields = [
        "level", "type", "code", "service", "source", "origin", "category", "is", "version", "env", "trace", "status",
        "duration",
    ]

    private let characters: [Character]
    private var index = 0

    private init(_ text: String) { characters = Array(text) }

    /// The clauses of `text`, in the order written.
    static func parse(_ text: String) throws(QueryError) -> [QueryClause] {
        var parser = QueryParser(text)
        return try parser.parseClauses()
    }

    private mutating func parseClauses() throws(QueryError) -> [QueryClause] {
        var clauses: [QueryClause] = []
        while true {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
            guard index < characters.count else { return clauses }
            var isExcluded = false
            if characters[index] == "-", index + 1 < characters.count, !characters[index + 1].isWhitespace {
                isExcluded = true
                index += 1
            }
            clauses.append(QueryClause(term: try parseTerm(), isExcluded: isExcluded))
        }
    }

    private mutating func parseTerm() throws(QueryError) -> QueryTerm {
        let start = index
        switch characters[index] {
        case "\"":
            let phrase = try readQuoted()
            guard !phrase.isEmpty else { throw QueryError(position: start, message: "empty phrase") }
            return .text(QueryNeedle(phrase))
        case "/":
            return try readRegex()
        default:
            if let comparison = readDurationComparison() { return try parseDuration(comparison, at: start) }
            if let field = readFieldName() { return try parseField(field, at: start) }
            return .text(QueryNeedle(readWord()))
        }
    }

    // MARK: Fields

    /// The letters before a colon at the current position, moving past the colon; `nil` (not moving) if the term
    /// is not `letters:`.
    private mutating func readFieldName() -> String? {
        var end = index
        while end < characters.count, characters[end].isASCII, characters[end].isLetter { end += 1 }
        guard end > index, end < characters.count, characters[end] == ":" else { return nil }
        let name = String(characters[index..<end])
        index = end + 1
        return name
    }

    /// `duration` and a comparison (`>`, `>=`, `<`, `<=`) at the current position, moving past them; `nil` (not
    /// moving) otherwise.
    private mutating func readDurationComparison() -> QueryComparison? {
        let name = "duration"
        guard characters.count > index + name.count,
            String(characters[index..<(index + name.count)]).lowercased() == name
        else { return nil }
        var end = index + name.count
        var symbol = ""
        while end < characters.count, characters[end] == ">" || characters[end] == "<" || characters[end] == "=",
            symbol.count < 2
        {
            symbol.append(characters[end])
            end += 1
        }
        guard let comparison = QueryComparison(rawValue: symbol) else { return nil }
        index = end
        return comparison
    }

    /// The duration after `duration>` and the like.
    private mutating func parseDuration(_ comparison: QueryComparison, at start: Int) throws(QueryError) -> QueryTerm {
        let valueStart = index
        let value = readWord()
        guard let nanos = QueryComparison.nanos(value) else {
            throw QueryError(
                position: valueStart,
                message: value.isEmpty
                    ? "empty value for \"duration\(comparison.rawValue)\""
                    : "unreadable duration \"\(value)\" (a number and ns, us, ms, s, m or h: 200ms)")
        }
        return .duration(comparison, nanos: nanos)
    }

    private mutating func parseField(_ name: String, at start: Int) throws(QueryError) -> QueryTerm {
        let field = name.lowercased()
        guard Self.fields.contains(field) else {
            throw QueryError(
                position: start,
                message: "unknown field \"\(name)\" (fields: \(Self.fields.joined(separator: ", ")))")
        }
        let valueStart = index
        let value = index < characters.count && characters[index] == "\"" ? try readQuoted() : readWord()
        guard !value.isEmpty else {
            throw QueryError(position: valueStart, message: "empty value for \"\(field):\"")
        }
        switch field {
        case "level":
            var name = value.lowercased()
            let orAbove = name.hasSuffix("+")
            if orAbove { name.removeLast() }
            guard let level = name == "warn" ? .warning : ErrorSeverity(name: name) else {
                let levels = ErrorSeverity.allCases.map(\.description).joined(separator: ", ")
                throw QueryError(position: valueStart, message: "unknown level \"\(value)\" (levels: \(levels))")
            }
            return .level(level, orAbove: orAbove)
        case "origin":
            guard let origin = ErrorOrigin.allCases.first(where: { $0.rawValue == value.lowercased() }) else {
                let origins = ErrorOrigin.allCases.map(\.rawValue).joined(separator: ", ")
                throw QueryError(position: valueStart, message: "unknown origin \"\(value)\" (origins: \(origins))")
            }
            return .origin(origin)
        case "category":
            let wanted = value.lowercased()
            let category = ErrorCategory.allCases.first {
                $0.rawValue.lowercased() == wanted || $0.label == wanted
            }
            guard let category else {
                let categories = ErrorCategory.allCases.map(\.rawValue).joined(separator: ", ")
                throw QueryError(
                    position: valueStart, message: "unknown category \"\(value)\" (categories: \(categories))")
            }
            return .category(category)
        case "is":
            guard let status = IssueQueryStatus(rawValue: value.lowercased()) else {
                let statuses = IssueQueryStatus.allCases.map(\.rawValue).joined(separator: ", ")
                throw QueryError(position: valueStart, message: "unknown status \"\(value)\" (is: \(statuses))")
            }
            return .status(status)
        case "version":
            return value.lowercased() == "latest" ? .latestVersion : .version(QueryNeedle(value))
        case "env": return .environment(QueryNeedle(value))
        case "trace": return .trace(value.lowercased())
        case "status":
            switch value.lowercased() {
            case "error": return .traceStatus(failed: true)
            case "ok": return .traceStatus(failed: false)
            default: throw QueryError(position: valueStart, message: "unknown status \"\(value)\" (status: error, ok)")
            }
        case "duration":
            throw QueryError(position: start, message: "duration takes a comparison: duration>200ms, duration<1s")
        case "type": return .type(QueryNeedle(value))
        case "code": return .code(QueryNeedle(value))
        case "service": return .service(QueryNeedle(value))
        default: return .source(QueryNeedle(value))
        }
    }

    // MARK: Words, phrases, regexes

    /// The characters up to the next whitespace.
    private mutating func readWord() -> String {
        let start = index
        while index < characters.count, !characters[index].isWhitespace { index += 1 }
        return String(characters[start..<index])
    }

    /// The text between the quote at the current position and the next quote, moving past it.
    private mutating func readQuoted() throws(QueryError) -> String {
        let start = index
        guard let close = characters[(start + 1)...].firstIndex(of: "\"") else {
            throw QueryError(position: start, message: "unclosed quote")
        }
        index = close + 1
        return String(characters[(start + 1)..<close])
    }

    /// The regex between the slash at the current position and the next unescaped slash, compiled. `\/` stands for
    /// a slash; every other escape is left for the regex (`\\/` is an escaped backslash, then the closing slash).
    private mutating func readRegex() throws(QueryError) -> QueryTerm {
        let start = index
        var pattern = ""
        var cursor = start + 1
        while true {
            guard cursor < characters.count else { throw QueryError(position: start, message: "unclosed regex") }
            let character = characters[cursor]
            if character == "/" { break }
            if character == "\\" {
                guard cursor + 1 < characters.count else {
                    throw QueryError(position: start, message: "unclosed regex")
                }
                let escaped = characters[cursor + 1]
                if escaped != "/" { pattern.append("\\") }
                pattern.append(escaped)
                cursor += 2
            } else {
                pattern.append(character)
                cursor += 1
            }
        }
        index = cursor + 1
        guard !pattern.isEmpty else { throw QueryError(position: start, message: "empty regex") }
        do {
            return .regex(try QueryRegex(pattern))
        } catch {
            throw QueryError(position: start, message: "invalid regex: \(Self.oneLine(error))")
        }
    }

    /// Swift's description of a regex error, cut to its first line and at most 80 characters.
    static func oneLine(_ error: any Error) -> String {
        let text = String(describing: error)
        var line = text.split(whereSeparator: \.isNewline).first ?? ""
        while line.first?.isWhitespace == true { line.removeFirst() }
        while line.last?.isWhitespace == true { line.removeLast() }
        guard !line.isEmpty else { return "cannot compile" }
        return line.count > 80 ? String(line.prefix(79)) + "…" : String(line)
    }
}
