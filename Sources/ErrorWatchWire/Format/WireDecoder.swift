import Foundation

/// Turns one line of the wire format back into a ``WireEvent``, or says precisely why it cannot.
///
/// ```swift
/// switch Result(catching: { try WireDecoder().decode(line) }) {
/// case .success(let event): show(event)
/// case .failure(let error as WireError): count(error)
/// }
/// ```
public struct WireDecoder: Sendable {
    /// The longest line accepted, newline included.
    public var maximumLineBytes: Int

    /// Creates a decoder with the format's 64 KiB line limit.
    public init(maximumLineBytes: Int = LineFramer.defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Decodes the bytes of one line, with or without its trailing newline.
    public func decode(_ line: some Collection<UInt8>) throws(WireError) -> WireEvent {
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        guard bytes.count < maximumLineBytes else { throw .lineTooLong(byteCount: bytes.count + 1) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .invalidUTF8 }
        let first = bytes.first { !Self.isWhitespace($0) }
        guard let first else { throw .malformedJSON("empty line") }
        if first != UInt8(ascii: "{") {
            // Decide between "not an object" and "not JSON" only on this rare path.
            if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil {
                throw .notAnObject
            }
            throw .malformedJSON("expected an object at the start of the line")
        }
        do {
            return try JSONDecoder().decode(WireEvent.self, from: Data(bytes))
        } catch let error as WireError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformedJSON(Self.detail(context))
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw .notAnObject
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw .invalidField(context.codingPath.first?.stringValue ?? "?")
        } catch let DecodingError.keyNotFound(key, _) {
            throw .missingField(key.stringValue)
        } catch {
            throw .malformedJSON(String(describing: error))
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    private static func detail(_ context: DecodingError.Context) -> String {
        let underlying = context.underlyingError.map { " (\($0))" } ?? ""
        return String((context.debugDescription + underlying).prefix(200))
    }
}
