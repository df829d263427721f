import ErrorStreaming
import Foundation

/// A logged-in session.
public struct Session: Sendable, Hashable {
    /// The bearer token.
    public var token: String
    /// Who is logged in.
    public var user: String
}
