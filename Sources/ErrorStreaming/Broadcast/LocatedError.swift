

/// An error that knows where it comes from better than the place it is added at.
///
/// An ``ErrorEvent`` carrying one reports the error's own ``sourceLocation`` as its ``ErrorEvent/location``,
/// instead of where `add` was called. ``BugReport`` adopts it (the line that reported the bug), and so does
/// ErrorWatchWire's `RemoteError` (the location the producing process sent, if any), so an error relayed from
/// another process never shows the relay's own source line.
public protocol LocatedError: Error {
    /// Where the error comes from; `nil` when that is unknown (the event then has no location either).
    var sourceLocation: CodeLocation? { get }
}
