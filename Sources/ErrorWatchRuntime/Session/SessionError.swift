import ErrorStreaming
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

/// Why a session could not start.
public enum SessionError: Error, CustomStringConvertible, Equatable {
    /// The recording file could not be opened.
    case cannotRecord(path: String, reason: String)
    /// A source could not start (a live socket at the path, a port in use…).
    case sourceFailed(String)

    public var description: String {
        switch self {
        case .cannotRecord(let path, let reason): "cannot record to \(path): \(reason)"
        case .sourceFailed(let reason): reason
        }
    }
}
