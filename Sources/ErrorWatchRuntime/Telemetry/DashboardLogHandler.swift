import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Logging

/// A swift-log `LogHandler` that feeds the dashboard: every record goes to `sink`; a record that carries an
/// error (`logger.error("…", error: e)`) also adds that error to the ``ErrorStream``, so logging an error is
/// enough for it to be counted, classified and, for user-facing origins, alerted.
///
/// ```swift
/// let logger = Logger(label: "auth") { label in DashboardLogHandler(label: label, stream: stream, sink: { _ in }) }
/// logger.error("login failed", error: AuthError.offline)
/// ```
public struct DashboardLogHandler: LogHandler {
    /// One log record as the `Logs` pane needs it.
    public struct Record: Sendable {
        /// When it was logged, on the app's clock.
        public var timestamp: Date
        /// The swift-log level.
        public var level: Logger.Level
        /// The logger's label, shown as the source.
        public var label: String
        /// The message text.
        public var message: String
        /// The record's metadata, flattened to strings.
        public var metadata: [String: String]
        /// The error the log call carried, if any (it also went to the stream).
        public var error: (any Error)?
    }

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info

    private let label: String
    private let stream: ErrorStream
    private let sink: @Sendable (Record) -> Void
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - label: the logger's label, shown as the source.
    ///   - stream: where errors attached to log calls are added.
    ///   - now: the time source (the demo's clock, so headless runs are reproducible).
    ///   - sink: receives every record; called on the logging thread, so it must be cheap and thread-safe.
    public init(
        label: String, stream: ErrorStream, now: @escaping @Sendable () -> Date = { Date() },
        sink: @escaping @Sendable (Record) -> Void
    ) {
        self.label = label
        self.stream = stream
        self.now = now
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let flat = event.mergedMetadata(handler: metadata, provider: metadataProvider)
        if let error = event.error {
            let origin: ErrorOrigin = flat["origin"].flatMap(ErrorOrigin.init(rawValue:)) ?? .user
            stream.add(
                error,
                context: ErrorContext(
                    source: label, severity: ErrorSeverity(event.level), origin: origin,
                    attempt: flat["attempt"].flatMap(Int.init), metadata: flat))
        }
        sink(
            Record(
                timestamp: now(), level: event.level, label: label, message: event.message.description,
                metadata: flat, error: event.error))
    }
}
