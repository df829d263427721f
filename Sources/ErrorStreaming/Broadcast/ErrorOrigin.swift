/// Where an error came from, as far as the user is concerned.
///
/// Errors of `.user` origin come from something the user did and may raise an alert. Errors of
/// `.background` origin (a periodic sync, a prefetch) are logged and counted but never alert.
public enum ErrorOrigin: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case user
    case background

    public var description: String { rawValue }
}
