/// Why one line of the wire format could not be turned into a ``WireEvent``.
public enum WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is longer than the limit (64 KiB including the newline); it was skipped, not buffered.
    case lineTooLong(byteCount: Int)
    /// The line is not valid UTF-8.
    case invalidUTF8
    /// The line is binary data, not text (a NUL byte, or control characters that no log line holds); read only
    /// where any text is accepted, and counted rather than shown.
    case binary(byteCount: Int)
    /// The line is not JSON; the associated text says where the parser gave up.
    case malformedJSON(String)
    /// The line is JSON but not an object (an array, a string, a number…).
    case notAnObject
    /// The object's `v` is a major version this reader does not know.
    case unsupportedVersion(Int)
    /// A required field is absent; the associated value is its JSON key.
    case missingField(String)
    /// A field has the wrong type or an unknown value; the associated value is its JSON key.
    case invalidField(String)

    /// A short English sentence for logs and the Sources pane.
    public var description: String {
        switch self {
        case .lineTooLong(let count): "line too long (\(count)+ bytes)"
        case .invalidUTF8: "invalid UTF-8"
        case .binary(let count): "binary data, not text (\(count) bytes)"
        case .malformedJSON(let detail): "malformed JSON: \(detail)"
        case .notAnObject: "not a JSON object"
        case .unsupportedVersion(let version): "unsupported format version \(version)"
        case .missingField(let key): "missing field \(key)"
        case .invalidField(let key): "invalid field \(key)"
        }
    }
}
