#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date, without the rest of Foundation (about 7 MB of resident memory on Linux)
#else
    import Foundation
#endif

/// A classified error with what the producer knew about it: where it came from, which attempt, and when.
///
/// Reports are what reaction policies and the ``AlertCoalescer`` consume. Build one from a stream event:
///
/// ```swift
/// for await event in stream.events {
///     let report = ErrorReport(event)
///     print(report.classification.code, report.origin)
/// }
/// ```
public struct ErrorReport: Sendable, Hashable, CustomStringConvertible {
    /// What the error is.
    public var classification: Classification
    /// The producer's context: source, origin, attempt and metadata.
    public var context: ErrorContext
    /// When the error happened.
    public var timestamp: Date

    /// Creates a report from its parts.
    public init(classification: Classification, context: ErrorContext = .default, timestamp: Date = Date()) {
        self.classification = classification
        self.context = context
        self.timestamp = timestamp
    }

    /// Classifies `error` (see ``Classification/init(of:)``) and attaches the context.
    public init(_ error: any Error, context: ErrorContext = .default, timestamp: Date = Date()) {
        self.init(classification: Classification(of: error), context: context, timestamp: timestamp)
    }

    /// Classifies the event's error and keeps its context and timestamp.
    public init(_ event: ErrorEvent) {
        self.init(event.error, context: event.context, timestamp: event.timestamp)
    }

    /// User or background origin; background errors are logged and counted but never alert.
    public var origin: ErrorOrigin { context.origin }
    /// The component that produced the error.
    public var source: String { context.source }
    /// The attempt number for a retried operation (1 for the first try), if any.
    public var attempt: Int? { context.attempt }
    /// The alert grouping key (shortcut for `classification.fingerprint`).
    public var fingerprint: String { classification.fingerprint }

    /// One log line: code, category, source, attempt, origin if background, then the technical message:
    /// `"N-503 transient sync attempt 2 (background): …"`.
    public var description: String {
        var line = "\(classification.code) \(classification.category.label) \(source)"
        if let attempt { line += " attempt \(attempt)" }
        if origin == .background { line += " (background)" }
        return line + ": " + classification.technicalMessage
    }
}
