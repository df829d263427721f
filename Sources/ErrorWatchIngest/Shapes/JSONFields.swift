import ErrorWatchWire
import Foundation

/// The top-level members of one JSON object line, as ``JSONScanner`` read them, with the lookups the log shapes
/// need: strings, numbers, timestamps and nested objects (scanned again from their byte range on demand).
///
/// Members are kept in an array, in line order: a log line has a dozen keys, and a linear search over them is
/// cheaper than hashing each one into a dictionary. A later duplicate wins, as in `JSONDecoder`.
struct JSONFields {
    let bytes: UnsafeRawBufferPointer
    private(set) var members: [(key: String, value: JSONScanner.Value)] = []

    /// Scans `bytes` (UTF-8 checked) as one JSON object; `nil` when the line is not one.
    init?(scanning bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        var scanner = JSONScanner(bytes)
        var members: [(key: String, value: JSONScanner.Value)] = []
        members.reserveCapacity(12)
        do {
            try scanner.scanObject { key, value in members.append((key, value)) }
        } catch {
            return nil
        }
        self.members = members
    }

    private init(bytes: UnsafeRawBufferPointer, members: [(key: String, value: JSONScanner.Value)]) {
        self.bytes = bytes
        self.members = members
    }

    /// The first key of the object, which decides most shapes.
    var firstKey: String? { members.first?.key }

    /// The value of `key`, the last one when the key repeats.
    subscript(key: String) -> JSONScanner.Value? {
        // Lengths first: comparing two different strings is the slow path of `==`, and most keys differ in length.
        let length = key.utf8.count
        for member in members.reversed() where member.key.utf8.count == length && member.key == key {
            return member.value
        }
        return nil
    }

    /// Whether the object has `key` with a value other than `null`.
    func has(_ key: String) -> Bool {
        guard let value = self[key] else { return false }
        if case .null = value { return false }
        return true
    }

    /// A string member; a number or boolean member as its JSON text.
    func text(_ key: String) -> String? {
        guard let value = self[key] else { return nil }
        return text(of: value)
    }

    /// A string as itself, a number or boolean as its JSON text, an object or array as its compact JSON text.
    func text(of value: JSONScanner.Value) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let range): return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return nil
        case .stringMap(let map):
            return "{" + map.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .stringArray(let items): return "[" + items.joined(separator: ", ") + "]"
        case .other(let range): return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    /// A number member (or a string holding one, as some loggers quote numbers).
    func number(_ key: String) -> Double? {
        switch self[key] {
        case .number(let range)?: return Self.double(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .string(let text)?: return Double(text)
        default: return nil
        }
    }

    /// Whether `key` holds a JSON number.
    func isNumber(_ key: String) -> Bool {
        if case .number? = self[key] { return true }
        return false
    }

    /// A nested object member, scanned again; a string-only object comes back from its map.
    func object(_ key: String) -> JSONFields? {
        switch self[key] {
        case .other(let range)?:
            guard bytes[range.lowerBound] == UInt8(ascii: "{") else { return nil }
            return JSONFields(scanning: UnsafeRawBufferPointer(rebasing: bytes[range])).map {
                JSONFields(
                    bytes: bytes,
                    members: $0.members.map { member in
                        (member.key, member.value.shifted(by: range.lowerBound))
                    })
            }
        case .stringMap(let map)?:
            return JSONFields(bytes: bytes, members: map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        default:
            return nil
        }
    }

    /// A timestamp member: an RFC 3339 or ISO 8601-like string, or a number since 1970 in seconds, milliseconds,
    /// microseconds or nanoseconds (``LogTimestamp/date(epochNumber:)`` tells them apart by size); a string of
    /// digits is read as such a number. `milliseconds` says which unit a shape documents (pino's `time`), used
    /// when the size cannot tell.
    func date(_ key: String, milliseconds: Bool = false) -> Date? {
        switch self[key] {
        case .string(let text)?:
            if let date = LogTimestamp.parse(text) { return date }
            guard let value = Double(text) else { return nil }
            return LogTimestamp.date(epochNumber: value, milliseconds: milliseconds)
        case .number(let range)?:
            guard let value = Self.double(UnsafeRawBufferPointer(rebasing: bytes[range])) else { return nil }
            return LogTimestamp.date(epochNumber: value, milliseconds: milliseconds)
        default: return nil
        }
    }

    /// Members other than `known`, as string attributes (numbers and booleans as their JSON text, nested values as
    /// compact JSON), at most `limit` of them.
    func attributes(excluding known: Set<String>, limit: Int = 64) -> [String: String] {
        var result: [String: String] = [:]
        for member in members where !known.contains(member.key) {
            guard result.count < limit else { break }
            if let text = text(of: member.value) { result[member.key] = text }
        }
        return result
    }

    private static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard bytes.count <= 40 else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}

extension JSONScanner.Value {
    /// The same value with its byte ranges moved by `offset` (a nested object scanned on its own starts at 0).
    func shifted(by offset: Int) -> JSONScanner.Value {
        switch self {
        case .number(let range): .number(range.lowerBound + offset..<range.upperBound + offset)
        case .other(let range): .other(range.lowerBound + offset..<range.upperBound + offset)
        default: self
        }
    }
}
