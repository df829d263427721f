import ErrorWatchWire
import Foundation

/// A connection to a ``FeedListener``, numbered from 1 in the order producers connected.
public struct ProducerID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The connection number.
    public var rawValue: UInt64

    /// Wraps a connection number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Earlier connections first.
    public static func < (lhs: ProducerID, rhs: ProducerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#3`.
    public var description: String { "#\(rawValue)" }
}
