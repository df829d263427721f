import Foundation

/// A Sentry envelope read into its items (the format of getsentry/relay's `envelope.rs`, written here from the
/// protocol's description): a header line of JSON, then items, each a header line of JSON (`type`, and `length`
/// in bytes of its payload, or none for a payload that ends at the next newline) followed by its payload.
///
/// Reading is bounded and forgiving: a broken item (a header that is not a JSON object with a `type`, a `length`
/// past the end, a payload not followed by a newline) is counted in ``problems`` and reading goes on at the next
/// line, so the items around it are kept; only a missing or non-JSON envelope header refuses the whole envelope.
/// Payloads are slices of the body, never copies, so a huge `length` costs nothing.
///
/// ```swift
/// let envelope = try SentryEnvelope.read(Array(body))
/// for item in envelope.items where item.type == "event" { … }
/// ```
struct SentryEnvelope: Sendable {
    /// One item: its type and payload.
    struct Item: Sendable {
        /// `type` as sent (`event`, `transaction`, `log`, `attachment`, …).
        var type: String
        /// The payload's bytes.
        var payload: ArraySlice<UInt8>
    }

    /// Why an envelope could not be read at all.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The body is empty or its first line is empty.
        case missingHeader
        /// The first line is not a JSON object.
        case headerNotJSON

        var description: String {
            switch self {
            case .missingHeader: "the envelope has no header line"
            case .headerNotJSON: "the envelope's header line is not a JSON object"
            }
        }
    }

    /// The header's `event_id`, if sent.
    var eventID: String?
    /// The header's `sdk.name/sdk.version` (`sentry.python/2.75.0`), if sent.
    var sdk: String?
    /// The header's `dsn`, if sent.
    var dsn: String?
    /// The items read, in order, at most ``maximumItems``.
    var items: [Item] = []
    /// What was wrong with items that could not be read, or were left out, each once with how often.
    var problems: [String: Int] = [:]

    /// The most items kept from one envelope; the rest are counted as skipped.
    static let maximumItems = 1_000

    /// Items whose problems were counted.
    var problemCount: Int { problems.values.reduce(0, +) }

    /// Reads `bytes` as an envelope.
    static func read(_ bytes: [UInt8], maximumItems: Int = SentryEnvelope.maximumItems) throws(Failure) -> SentryEnvelope {
        var envelope = SentryEnvelope()
        var position = 0
        let newline = UInt8(ascii: "\n")
        /// The line from `position` to the next newline (or the end), moving past the newline.
        func line() -> ArraySlice<UInt8> {
            let end = bytes[position...].firstIndex(of: newline) ?? bytes.endIndex
            defer { position = min(bytes.endIndex, end + 1) }
            return bytes[position..<end]
        }
        let first = line()
        guard !first.isEmpty else { throw .missingHeader }
        guard let header = SentryJSON.object(first) else { throw .headerNotJSON }
        envelope.eventID = header["event_id"] as? String
        envelope.dsn = header["dsn"] as? String
        if let sdk = header["sdk"] as? [String: Any], let name = sdk["name"] as? String {
            envelope.sdk = (sdk["version"] as? String).map { "\(name)/\($0)" } ?? name
        }
        while position < bytes.endIndex {
            let headerLine = line()
            // Blank lines between items are tolerated, as relay does.
            if headerLine.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) { continue }
            guard let itemHeader = SentryJSON.object(headerLine), let type = itemHeader["type"] as? String else {
                envelope.problems["an item header is not a JSON object with a type; the line was skipped", default: 0] += 1
                continue
            }
            let payload: ArraySlice<UInt8>
            if let lengthValue = itemHeader["length"] {
                guard let length = SentryJSON.int(lengthValue), length >= 0 else {
                    envelope.problems["an item's length is not a whole number of bytes; the item was skipped", default: 0] += 1
                    continue
                }
                guard length <= bytes.endIndex - position else {
                    envelope.problems[
                        "an item's length (\(length) bytes) runs past the end of the envelope; it and the rest were "
                            + "skipped", default: 0] += 1
                    position = bytes.endIndex
                    break
                }
                payload = bytes[position..<(position + length)]
                position += length
                if position < bytes.endIndex {
                    guard bytes[position] == newline else {
                        // The length is wrong: the item is dropped and reading resumes at the next line.
                        envelope.problems["an item's payload does not end at its length; the item was skipped", default: 0] += 1
                        _ = line()
                        continue
                    }
                    position += 1
                }
            } else {
                payload = line()
            }
            guard envelope.items.count < maximumItems else {
                envelope.problems["items past the first \(maximumItems) were skipped", default: 0] += 1
                continue
            }
            envelope.items.append(Item(type: type, payload: payload))
        }
        return envelope
    }
}
