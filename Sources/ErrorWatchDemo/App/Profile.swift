import ErrorStreaming
import Foundation

/// The signed-in user's profile, decoded from the (simulated) server's JSON.
public struct Profile: Sendable, Hashable, Decodable {
    /// The user's name.
    public var name: String
    /// `free`, `pro` or `team`; anything else is a bug on our side.
    public var plan: String
}
