import ErrorStreaming
import ErrorWatchWire
import Foundation

/// Reading the loosely typed JSON of Sentry payloads within a budget (``SentryJSONReader``), and turning its values
/// into bounded text.
enum SentryJSON {
    /// The JSON object `bytes` holds, read within the standard budget; invalid UTF-8 and lone surrogate escapes are
    /// replaced with U+FFFD, so one bad character does not lose the object. `nil` when it is not a JSON object, or
    /// nests too deep.
    static func object(_ bytes: ArraySlice<UInt8>) -> [String: Any]? {
        try? SentryJSONReader.read(bytes).object
    }

    /// A list's elements and how many were sent: the elements a reader kept, without its ``SentryJSONReader/Omitted``
    /// markers, and their count with the omitted ones. `nil` when `value` is not a list.
    static func list(_ value: Any?) -> (elements: [Any], total: Int)? {
        guard let list = value as? [Any] else { return nil }
        var elements: [Any] = []
        elements.reserveCapacity(list.count)
        var total = 0
        for element in list {
            if let omitted = element as? SentryJSONReader.Omitted {
                total += omitted.count
            } else {
                elements.append(element)
                total += 1
            }
        }
        return (elements, total)
    }

    /// `value` with every list's omitted elements written as one string (`… 12 more`), as JSON can hold it.
    static func plain(_ value: Any) -> Any {
        switch value {
        case let omitted as SentryJSONReader.Omitted: return "… \(omitted.count) more"
        case let list as [Any]: return list.map(plain)
        case let object as [String: Any]: return object.mapValues(plain)
        default: return value
        }
    }

    /// `value` as text of at most `limit` characters (`…` marks a cut): strings as they are, numbers and booleans
    /// written out, arrays and objects as compact JSON (themselves cut to `limit`). `nil` for JSON null or nothing.
    static func text(_ value: Any?, limit: Int = 8_192) -> String? {
        guard let value, !(value is NSNull) else { return nil }
        let text: String
        switch value {
        case let string as String: text = string
        case let number as NSNumber:
            if isBoolean(number) {
                text = number.boolValue ? "true" : "false"
            } else {
                text = number.stringValue
            }
        default:
            let value = plain(value)
            guard JSONSerialization.isValidJSONObject(value),
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return String(describing: value).prefix(limit).description }
            text = String(decoding: data.prefix(limit * 4), as: UTF8.self)
        }
        return cut(text, limit)
    }

    /// `text` cut to `limit` characters, ending in `…` when cut.
    static func cut(_ text: String, _ limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var index = text.startIndex
        var count = 0
        while index < text.endIndex, count < limit {
            index = text.index(after: index)
            count += 1
        }
        return index == text.endIndex ? text : String(text[..<index]) + "…"
    }

    /// Whether a number the reader (or JSONSerialization) made is a JSON `true` or `false` (its type code is `c`, a
    /// C char; JSON numbers never get that code).
    static func isBoolean(_ number: NSNumber) -> Bool { number.objCType.pointee == CChar(UInt8(ascii: "c")) }

    /// A whole number, from a JSON number (not a boolean) or a string of digits.
    static func int(_ value: Any?) -> Int? {
        switch value {
        case let number as NSNumber:
            guard !isBoolean(number) else { return nil }
            let double = number.doubleValue
            guard double.isFinite, abs(double) < 1e15 else { return nil }
            return Int(double)
        case let string as String: return Int(string)
        default: return nil
        }
    }

    /// A boolean, from a JSON boolean only.
    static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// A time: seconds since 1970 as a number, or RFC 3339 text.
    static func date(_ value: Any?) -> Date? {
        switch value {
        case let number as NSNumber:
            guard !isBoolean(number) else { return nil }
            let seconds = number.doubleValue
            // Years 1970 to 9999, so the date can be written back.
            guard seconds.isFinite, seconds >= 0, seconds < 253_402_300_800 else { return nil }
            return Date(timeIntervalSince1970: seconds)
        case let string as String:
            return RFC3339.parse(string) ?? Double(string).flatMap { date(NSNumber(value: $0)) }
        default: return nil
        }
    }

    /// An object's or a list of pairs' entries as fields, in the order sent (objects sorted by name, since
    /// neither reader keeps their order), at most `limit`; nested objects flattened to dotted names up to
    /// `depth` levels, deeper values written as JSON. `dropped` counts the entries left out.
    static func fields(
        _ value: Any?, limit: Int = 100, depth: Int = 3, valueLimit: Int = 1_024, dropped: inout Int
    ) -> [ExceptionReport.Field] {
        var result: [ExceptionReport.Field] = []
        func add(_ name: String, _ value: Any?, _ level: Int) {
            if let object = value as? [String: Any], level < depth, !object.isEmpty {
                for key in object.keys.sorted() { add(name.isEmpty ? key : "\(name).\(key)", object[key], level + 1) }
                return
            }
            guard result.count < limit else {
                dropped += 1
                return
            }
            result.append(ExceptionReport.Field(cut(name, 200), text(value, limit: valueLimit) ?? "null"))
        }
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() { add(key, object[key], 1) }
        case let pairs as [Any]:
            for pair in list(pairs)?.elements ?? [] {
                guard let pair = pair as? [Any], pair.count == 2, let name = pair[0] as? String else {
                    dropped += 1
                    continue
                }
                add(name, pair[1], 1)
            }
        default:
            break
        }
        return result
    }
}
