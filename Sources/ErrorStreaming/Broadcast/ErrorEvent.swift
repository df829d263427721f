#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date, without the rest of Foundation (about 7 MB of resident memory on Linux)
#else
    import Foundation
#endif

/// One error as a listener of an ``ErrorStream`` receives it: the error, where it sits in the stream's
/// total order, when and where it was added and what the producer said about it.
public struct ErrorEvent: Sendable {
    /// The error that was added.
    public let error: any Error
    /// The position of this event in its stream, strictly increasing from 1.
    ///
    /// Every listener sees the same numbers for the same errors. A gap between two events a
    /// listener receives means that listener's buffer dropped the events in between.
    public let sequence: UInt64
    /// When the error was added, read from the stream's injected time source.
    public let timestamp: Date
    /// What the producer said about the error.
    public let context: ErrorContext
    /// Where `add` was called (or the ``ErrorHandler`` method that forwarded the error), as captured.
    let addedAt: CapturedLocation

    /// Creates an event without a location. Streams create events; tests and decoders may create them directly.
    public init(error: any Error, sequence: UInt64, timestamp: Date, context: ErrorContext = .default) {
        self.init(error: error, sequence: sequence, timestamp: timestamp, context: context, addedAt: .none)
    }

    /// Creates an event added at the given file, line and function (literals, as `#fileID`, `#line` and
    /// `#function` give them). A location known only as strings, such as another process's, belongs to the error
    /// instead: see ``LocatedError``.
    public init(
        error: any Error, sequence: UInt64, timestamp: Date, context: ErrorContext = .default, file: StaticString,
        line: UInt, function: StaticString
    ) {
        self.init(
            error: error, sequence: sequence, timestamp: timestamp, context: context,
            addedAt: CapturedLocation(file: file, line: line, function: function))
    }

    init(error: any Error, sequence: UInt64, timestamp: Date, context: ErrorContext, addedAt: CapturedLocation) {
        self.error = error
        self.sequence = sequence
        self.timestamp = timestamp
        self.context = context
        self.addedAt = addedAt
    }

    /// Where the error comes from in the source: the file, line and function that called `add`, `throw`,
    /// `handle` or `do`.
    ///
    /// An error that knows better (a ``LocatedError``: a ``BugReport``, or an error relayed from another process)
    /// reports its own location instead, or `nil` when it has none. Read on demand: adding an event only stores
    /// the addresses of the captured literals.
    public var location: CodeLocation? {
        if let located = error as? any LocatedError { return located.sourceLocation }
        return CodeLocation(addedAt)
    }

    /// The component that produced the error (shortcut for `context.source`).
    public var source: String { context.source }
    /// The producer's severity (shortcut for `context.severity`).
    public var severity: ErrorSeverity { context.severity }
    /// User or background origin (shortcut for `context.origin`).
    public var origin: ErrorOrigin { context.origin }
    /// The producer's metadata (shortcut for `context.metadata`).
    public var metadata: [String: String] { context.metadata }
}
