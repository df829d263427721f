import Foundation

/// Reads the JSON of a Sentry payload within a budget: the limits of ``SentryEventMapper/Limits`` are applied as
/// the bytes are read, so what it builds is proportional to what the mapper keeps, never to what was sent.
///
/// It builds the same loosely typed values `JSONSerialization` would (`[String: Any]`, `[Any]`, `String`,
/// `NSNumber`, `NSNull`), so the mapper reads either alike (`SentryJSONReaderTests` checks that ordinary payloads map
/// to the same events), but:
///
/// - a list it does not keep whole holds one ``Omitted`` in place of what it skipped: a stack's `frames` keep the
///   first ``SentryEventMapper/Limits/framesHead`` and the last ``SentryEventMapper/Limits/framesTail`` (the frames
///   between are read past, never built), an exception chain its last 20, `breadcrumbs` their last 100, context
///   lines their last 10, any other list its first ``Budget/maximumElements``; an object keeps its first
///   ``Budget/maximumMembers`` members;
/// - strings are cut while read (``Budget/maximumStringBytes``, then ``Budget/shortStringBytes`` once an item has kept
///   ``Budget/keptStringBytes`` of text), ending in `…`;
/// - nesting past ``Budget/maximumDepth`` refuses the item (``Failure/tooDeep(_:)``), before the stack is at risk;
/// - a lone UTF-16 surrogate escape (`\ud800` without its pair) becomes U+FFFD, as invalid UTF-8 does, and is noted:
///   the event is shown, with its text repaired, rather than lost for one unpairable character.
///
/// Every cut is described once in ``Result/cuts``.
///
/// ```swift
/// let result = try SentryJSONReader.read(item.payload)
/// let mapped = SentryEventMapper.map(type: "event", payload: result.object, receivedAt: now, cuts: result.cuts)
/// ```
struct SentryJSONReader {
    /// How much one payload may keep.
    struct Budget: Sendable {
        /// Containers nested deeper than this refuse the item (Sentry's SDKs cut their own data at 10 or fewer).
        var maximumDepth = 256
        /// Elements kept of a list with no rule of its own.
        var maximumElements = 1_000
        /// Members kept of an object.
        var maximumMembers = 1_000
        /// Bytes kept of one string (or member name): four times the longest text the mapper keeps.
        var maximumStringBytes = 4 * SentryEventMapper.Limits.messageCharacters
        /// Bytes of text an item may keep in all before later strings are cut to ``shortStringBytes``.
        var keptStringBytes = 4 * 1_024 * 1_024
        /// Bytes kept of each string once ``keptStringBytes`` is spent.
        var shortStringBytes = 256
        /// Values an item may keep in all; later ones are read past.
        var maximumValues = 250_000

        /// The budget of every Sentry item.
        static let standard = Budget()
    }

    /// Why a payload could not be read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not JSON: what was wrong and the byte offset.
        case invalid(String, offset: Int)
        /// Containers nested deeper than the budget allows.
        case tooDeep(Int)
        /// JSON, but not an object.
        case notAnObject

        var description: String {
            switch self {
            case .invalid(let reason, let offset): "not JSON: \(reason) at byte \(offset)"
            case .tooDeep(let limit): "nested deeper than \(limit) levels"
            case .notAnObject: "not a JSON object"
            }
        }
    }

    /// What a list held in the place of the elements it did not keep.
    struct Omitted: Sendable, Equatable {
        /// Elements read past.
        var count: Int
    }

    /// A payload read.
    struct Result {
        /// The payload's object.
        var object: [String: Any]
        /// What was cut while reading beyond the lists' ``Omitted`` markers, each said once.
        var cuts: [String]
    }

    /// Reads `bytes` as one JSON object within `budget`.
    static func read(_ bytes: ArraySlice<UInt8>, budget: Budget = .standard) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, budget: budget)
            do throws(Failure) {
                return .success(try parser.document())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// How a list is kept: its first `head` and its last `tail` elements.
    struct ListRule: Equatable {
        var head: Int
        var tail: Int
    }

    /// The rule for a list that is the member `key` of an object that is itself the member `parent`: the mapper's
    /// limits for the lists it reads, the budget's elsewhere.
    static func rule(key: String?, parent: String?, budget: Budget) -> ListRule {
        typealias Limits = SentryEventMapper.Limits
        switch (key, parent) {
        case ("frames", _): return ListRule(head: Limits.framesHead, tail: Limits.framesTail)
        case ("exception", _), ("values", "exception"): return ListRule(head: 0, tail: Limits.exceptions)
        case ("breadcrumbs", _), ("values", "breadcrumbs"): return ListRule(head: 0, tail: Limits.breadcrumbs)
        case ("pre_context", _), ("post_context", _): return ListRule(head: 0, tail: Limits.contextLines)
        default: return ListRule(head: budget.maximumElements, tail: 0)
        }
    }
}

extension SentryJSONReader {
    /// The reading itself: recursive descent over the bytes, never deeper than the budget's depth.
    fileprivate struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let budget: Budget
        var position = 0
        var depth = 0
        /// Text and values kept so far (less what a list's window let go).
        var keptBytes = 0
        var keptValues = 0
        /// Counts of what was cut, for ``Result/cuts``.
        var longStrings = 0
        var shortenedStrings = 0
        var droppedMembers = 0
        var droppedValues = 0
        var surrogates = 0
        /// Lists being kept whose elements were counted first.
        var counted = 0

        init(bytes: UnsafeBufferPointer<UInt8>, budget: Budget) {
            self.bytes = bytes
            self.budget = budget
        }

        mutating func document() throws(Failure) -> Result {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else {
                if position < bytes.count, bytes[position] == UInt8(ascii: "[") || isValueStart(bytes[position]) {
                    _ = try value(key: nil, parent: nil, keep: false)
                    skipSpace()
                    guard position == bytes.count else { throw invalid("text after the value") }
                    throw .notAnObject
                }
                throw invalid(position < bytes.count ? "unexpected character" : "no value")
            }
            let object = try value(key: nil, parent: nil, keep: true) as? [String: Any] ?? [:]
            skipSpace()
            guard position == bytes.count else { throw invalid("text after the object") }
            return Result(object: object, cuts: cuts)
        }

        var cuts: [String] {
            var cuts: [String] = []
            if longStrings > 0 {
                cuts.append(
                    "text: \(longStrings) strings longer than \(budget.maximumStringBytes) bytes were cut while read")
            }
            if shortenedStrings > 0 {
                cuts.append(
                    "text: past \(budget.keptStringBytes) bytes kept, \(shortenedStrings) later strings were cut to "
                        + "\(budget.shortStringBytes) bytes")
            }
            if droppedMembers > 0 {
                cuts.append("objects: \(droppedMembers) members past the first \(budget.maximumMembers) were not read")
            }
            if droppedValues > 0 {
                cuts.append("values: \(droppedValues) past the first \(budget.maximumValues) were not read")
            }
            if surrogates > 0 {
                cuts.append("text: \(surrogates) lone UTF-16 surrogate escapes were replaced with U+FFFD")
            }
            return cuts
        }

        func invalid(_ reason: String) -> Failure { .invalid(reason, offset: position) }

        func isValueStart(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
                UInt8(ascii: "f"), UInt8(ascii: "n"):
                true
            default: false
            }
        }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// One value; built when `keep`, else only checked and read past (nothing allocated but what a string
        /// escape needs). `key` and `parent` name where it sits, for the list rules.
        mutating func value(key: String?, parent: String?, keep: Bool) throws(Failure) -> Any? {
            skipSpace()
            guard position < bytes.count else { throw invalid("the input ends inside a value") }
            var keep = keep
            if keep {
                if keptValues >= budget.maximumValues {
                    droppedValues += 1
                    keep = false
                } else {
                    keptValues += 1
                }
            }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(key: key, keep: keep)
            case UInt8(ascii: "["): return try list(key: key, parent: parent, keep: keep)
            case UInt8(ascii: "\""): return try string(keep: keep)
            case UInt8(ascii: "t"): return try literal("true", NSNumber(value: true))
            case UInt8(ascii: "f"): return try literal("false", NSNumber(value: false))
            case UInt8(ascii: "n"): return try literal("null", NSNull())
            default: return try number(keep: keep)
            }
        }

        mutating func enter() throws(Failure) {
            depth += 1
            guard depth <= budget.maximumDepth else { throw .tooDeep(budget.maximumDepth) }
        }

        mutating func object(key: String?, keep: Bool) throws(Failure) -> Any? {
            try enter()
            defer { depth -= 1 }
            position += 1
            var result: [String: Any] = [:]
            var members = 0
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return keep ? result : nil
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw invalid("expected a member name")
                }
                let keepMember = keep && members < budget.maximumMembers
                if keep, !keepMember { droppedMembers += 1 }
                let name = try string(keep: keepMember) as? String
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw invalid("expected ':'")
                }
                position += 1
                let member = try value(key: name, parent: key, keep: keepMember)
                if keepMember, let name {
                    result[name] = member
                    members += 1
                }
                skipSpace()
                guard position < bytes.count else { throw invalid("the input ends inside an object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw invalid("expected ',' or '}'") }
                position += 1
                return keep ? result : nil
            }
        }

        mutating func list(key: String?, parent: String?, keep: Bool) throws(Failure) -> Any? {
            try enter()
            defer { depth -= 1 }
            let rule = SentryJSONReader.rule(key: key, parent: parent, budget: budget)
            guard keep, rule.tail > 0 else { return try elements(key: key, keep: keep, total: nil, rule: rule) }
            guard counted < 2 else { return try window(key: key, rule: rule) }
            // Counted first (read past, nothing built), so that only the elements kept are built: linear, since at
            // most two such lists inside each other are counted (a stack's frames inside an exception chain).
            let start = position
            let total = try elements(key: key, keep: false, total: nil, rule: rule) as? Int ?? 0
            position = start
            counted += 1
            defer { counted -= 1 }
            return try elements(key: key, keep: true, total: total, rule: rule)
        }

        /// A list's elements: counted (returned as an `Int`) when not kept; else kept by `rule`, knowing the `total`.
        mutating func elements(key: String?, keep: Bool, total: Int?, rule: ListRule) throws(Failure) -> Any? {
            position += 1
            var kept: [Any] = []
            var count = 0
            var omitted = 0
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                if keep { return kept }
                return 0
            }
            let tailStart = total.map { $0 - rule.tail } ?? Int.max
            while true {
                let keepElement = keep && (count < rule.head || count >= tailStart)
                if keep, !keepElement {
                    omitted += 1
                } else if omitted > 0 {
                    kept.append(Omitted(count: omitted))
                    omitted = 0
                }
                if let element = try value(key: nil, parent: key, keep: keepElement), keepElement {
                    kept.append(element)
                }
                count += 1
                skipSpace()
                guard position < bytes.count else { throw invalid("the input ends inside a list") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    skipSpace()
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw invalid("expected ',' or ']'") }
                position += 1
                break
            }
            guard keep else { return count }
            if omitted > 0 { kept.append(Omitted(count: omitted)) }
            return kept
        }

        /// A kept list past two counted ones: its last elements kept in a window, each built and let go in turn, so
        /// memory stays that of the window (the time, linear).
        mutating func window(key: String?, rule: ListRule) throws(Failure) -> Any? {
            position += 1
            var head: [Any] = []
            // The last `rule.tail` elements read, with what each kept, as a ring.
            var tail: [(value: Any, bytes: Int, values: Int)] = []
            var next = 0
            var count = 0
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return head
            }
            while true {
                if count < rule.head {
                    if let element = try value(key: nil, parent: key, keep: true) { head.append(element) }
                } else {
                    let (bytesBefore, valuesBefore) = (keptBytes, keptValues)
                    let element = try value(key: nil, parent: key, keep: true) ?? NSNull()
                    let entry = (value: element, bytes: keptBytes - bytesBefore, values: keptValues - valuesBefore)
                    if tail.count < rule.tail {
                        tail.append(entry)
                    } else {
                        // The oldest of the window gives way, and what it kept may be spent again.
                        keptBytes -= tail[next].bytes
                        keptValues -= tail[next].values
                        tail[next] = entry
                        next = (next + 1) % rule.tail
                    }
                }
                count += 1
                skipSpace()
                guard position < bytes.count else { throw invalid("the input ends inside a list") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw invalid("expected ',' or ']'") }
                position += 1
                break
            }
            let omitted = count - head.count - tail.count
            if omitted > 0 { head.append(Omitted(count: omitted)) }
            head += (tail[next...] + tail[..<next]).map(\.value)
            return head
        }

        mutating func literal(_ word: StaticString, _ result: Any) throws(Failure) -> Any? {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw invalid("the input ends inside a literal") }
            for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
                throw invalid("unknown literal")
            }
            position += count
            return result
        }

        mutating func number(keep: Bool) throws(Failure) -> Any? {
            let start = position
            var integral = true
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digits = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            guard position > digits else { throw invalid("expected a value") }
            guard bytes[digits] != UInt8(ascii: "0") || position - digits == 1 else { throw invalid("a leading zero") }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                integral = false
                position += 1
                let fraction = position
                while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
                {
                    position += 1
                }
                guard position > fraction else { throw invalid("a fraction without digits") }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                integral = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                let exponent = position
                while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
                {
                    position += 1
                }
                guard position > exponent else { throw invalid("an exponent without digits") }
            }
            guard keep else { return nil }
            // Numbers are short once valid only when sent so; a long one is read as a Double from its first bytes.
            let text = String(
                decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(position, start + 400)]), as: UTF8.self)
            keptBytes += text.utf8.count
            if integral, let int = Int(text) { return NSNumber(value: int) }
            if integral, let unsigned = UInt64(text) { return NSNumber(value: unsigned) }
            return NSNumber(value: Double(text) ?? (text.hasPrefix("-") ? -Double.infinity : Double.infinity))
        }

        /// A string (the opening quote at `position`), cut to the budget's bytes while read.
        mutating func string(keep: Bool) throws(Failure) -> Any? {
            position += 1
            let limit = keptBytes >= budget.keptStringBytes ? budget.shortStringBytes : budget.maximumStringBytes
            var text: [UInt8] = []
            var cut = false
            /// Appends `more` unless the limit is reached.
            func append(_ more: UnsafeBufferPointer<UInt8>.SubSequence) {
                guard keep, !cut else { return }
                if text.count + more.count > limit {
                    text += more.prefix(limit - text.count)
                    cut = true
                } else {
                    text += more
                }
            }
            func append(scalar: Unicode.Scalar) {
                guard keep, !cut else { return }
                var encoded: [UInt8] = []
                UTF8.encode(scalar) { encoded.append($0) }
                encoded.withUnsafeBufferPointer { append($0[...]) }
            }
            while true {
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
                    bytes[position] != UInt8(ascii: "\\")
                {
                    guard bytes[position] >= 0x20 else { throw invalid("a control character in a string") }
                    position += 1
                }
                append(bytes[start..<position])
                guard position < bytes.count else { throw invalid("the input ends inside a string") }
                if bytes[position] == UInt8(ascii: "\"") {
                    position += 1
                    break
                }
                position += 1
                guard position < bytes.count else { throw invalid("the input ends inside an escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(scalar: Unicode.Scalar(escape))
                case UInt8(ascii: "b"): append(scalar: "\u{08}")
                case UInt8(ascii: "f"): append(scalar: "\u{0C}")
                case UInt8(ascii: "n"): append(scalar: "\n")
                case UInt8(ascii: "r"): append(scalar: "\r")
                case UInt8(ascii: "t"): append(scalar: "\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if unit >= 0xD800, unit < 0xDC00, let low = peekLowSurrogate() {
                        position += 6
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        append(scalar: Unicode.Scalar(value) ?? "\u{FFFD}")
                    } else if let scalar = Unicode.Scalar(UInt32(unit)) {
                        append(scalar: scalar)
                    } else {
                        // A surrogate without its pair: no character, so the replacement character stands for it.
                        if keep { surrogates += 1 }
                        append(scalar: "\u{FFFD}")
                    }
                default:
                    position -= 1
                    throw invalid("an unknown escape")
                }
            }
            guard keep else { return nil }
            // Invalid UTF-8 (and a multi-byte character cut in two) becomes U+FFFD, as Foundation repairs it.
            var result = String(decoding: text, as: UTF8.self)
            if cut {
                if limit == budget.maximumStringBytes { longStrings += 1 } else { shortenedStrings += 1 }
                if result.unicodeScalars.last == "\u{FFFD}", text.last.map({ $0 >= 0x80 }) == true {
                    result.unicodeScalars.removeLast()
                }
                result += "…"
            }
            keptBytes += text.count
            return result
        }

        /// Four hex digits after `\u`.
        mutating func hex4() throws(Failure) -> UInt16 {
            guard position + 4 <= bytes.count else { throw invalid("the input ends inside a \\u escape") }
            var unit: UInt16 = 0
            for _ in 0..<4 {
                guard let digit = Self.hexValue(bytes[position]) else {
                    throw invalid("a \\u escape without four hex digits")
                }
                unit = unit << 4 | UInt16(digit)
                position += 1
            }
            return unit
        }

        /// The low surrogate of a `\uDC00`–`\uDFFF` escape right at `position`, without moving.
        func peekLowSurrogate() -> UInt16? {
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            var unit: UInt16 = 0
            for offset in 2..<6 {
                guard let digit = Self.hexValue(bytes[position + offset]) else { return nil }
                unit = unit << 4 | UInt16(digit)
            }
            return unit >= 0xDC00 && unit < 0xE000 ? unit : nil
        }

        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }
}
