/// How serious an error is, from a debug-level curiosity to a critical failure.
///
/// The levels line up with swift-log's `Logger.Level` (without `trace`), so an error can be logged
/// at its own severity without a translation table.
public enum ErrorSeverity: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    case debug
    case info
    case notice
    case warning
    case error
    case critical

    public static func < (lhs: ErrorSeverity, rhs: ErrorSeverity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The lowercase name, as used in logs and on the wire: `"warning"`.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// Parses a lowercase name such as `"warning"`; `nil` for anything else.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }
}
