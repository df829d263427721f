/// What kind of failure an error is, which decides who can do something about it.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// A fault in our own code: an impossible branch taken, a decoding mismatch. Report it; the user cannot fix it.
    case bug
    /// The user can fix it: they are offline, typed a wrong password, must log in again.
    case userActionable
    /// It may work later without anyone doing anything: a timeout, a 503.
    case transient
    /// Nobody can do anything about it.
    case unrecoverable
    /// A known, anticipated reply that is handled quietly (a cancelled request, an empty result).
    case expected

    /// The camel-case name, as used on the wire: `"userActionable"`.
    public var description: String { rawValue }

    /// A short human label: `"user-actionable"`.
    public var label: String {
        switch self {
        case .bug: "bug"
        case .userActionable: "user-actionable"
        case .transient: "transient"
        case .unrecoverable: "unrecoverable"
        case .expected: "expected"
        }
    }
}
