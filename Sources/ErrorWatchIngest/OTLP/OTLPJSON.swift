import ErrorWatchWire
import Foundation
import SwiftProtobuf

/// OTLP/JSON is protobuf's JSON mapping with one exception: trace and span ids are hex, not base64. SwiftProtobuf
/// reads everything else as the specification asks (lowerCamelCase or the proto names, 64-bit integers as strings
/// or numbers, enums as numbers or names); this rewrites the ids of a body to base64 before it decodes.
enum OTLPJSON {
    /// Decoding options: unknown fields are skipped, as OTLP requires of receivers.
    static var decodingOptions: JSONDecodingOptions {
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = true
        return options
    }

    private static let idKeys: [[UInt8]] = [
        "traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id",
    ].map { Array($0.utf8) }

    /// `body` with the value of every `"traceId"`, `"spanId"` and `"parentSpanId"` key (or its proto name,
    /// `"trace_id"`…) that is an even-length hex string rewritten to base64. Other values are left as they are (and fail to decode when they
    /// are not base64 either).
    ///
    /// A key is recognised only as a quote, the key, a quote and a colon: inside a JSON string a quote is always
    /// escaped, so the text of a string value never matches.
    static func rewritingHexIDs(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        var copied = 0
        let quote = UInt8(ascii: "\"")
        while index < body.count {
            guard body[index] == quote, let key = idKeys.first(where: { matches($0, in: body, at: index + 1) }) else {
                index += 1
                continue
            }
            var cursor = index + 1 + key.count + 1
            cursor = skipSpace(body, cursor)
            guard cursor < body.count, body[cursor] == UInt8(ascii: ":") else {
                index += 1
                continue
            }
            cursor = skipSpace(body, cursor + 1)
            guard cursor < body.count, body[cursor] == quote else {
                index += 1
                continue
            }
            let start = cursor + 1
            var end = start
            while end < body.count, hexValue(body[end]) != nil { end += 1 }
            guard end < body.count, body[end] == quote, (end - start) % 2 == 0 else {
                index = start
                continue
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - start) / 2)
            var position = start
            while position < end {
                bytes.append(hexValue(body[position])! << 4 | hexValue(body[position + 1])!)
                position += 2
            }
            if out.isEmpty { out.reserveCapacity(body.count) }
            out.append(contentsOf: body[copied..<start])
            out.append(contentsOf: Array(Data(bytes).base64EncodedString().utf8))
            copied = end
            index = end + 1
        }
        guard copied > 0 else { return body }
        out.append(contentsOf: body[copied...])
        return out
    }

    private static func matches(_ key: [UInt8], in body: [UInt8], at start: Int) -> Bool {
        guard start + key.count < body.count else { return false }
        for offset in 0..<key.count where body[start + offset] != key[offset] { return false }
        return body[start + key.count] == UInt8(ascii: "\"")
    }

    private static func skipSpace(_ body: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < body.count, [0x20, 0x09, 0x0a, 0x0d].contains(body[index]) { index += 1 }
        return index
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
