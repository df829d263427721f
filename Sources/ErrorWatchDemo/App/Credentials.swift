import ErrorStreaming
import Foundation

/// Credentials typed into the simulated login form.
public struct Credentials: Sendable, Hashable {
    /// The account's email.
    public var email: String
    /// The password typed.
    public var password: String
    /// Credentials as typed.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
    /// The demo user.
    public static let demo = Credentials(email: "ada@example.com", password: "correct horse")
}
