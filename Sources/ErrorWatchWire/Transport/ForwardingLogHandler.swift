import Foundation
import Logging

/// A swift-log `LogHandler` that sends every record to an ``ErrorForwarder`` as a `log` event.
///
/// Logging never blocks: the record is encoded on the calling thread and queued (or dropped and counted when
/// the queue is full). A record logged with an error names the error's type and code in the event.
///
/// To write records to the console as well, wrap the console's handler in a ``TeeLogHandler`` rather than
/// multiplexing the two: it costs a busy server far less per request.
///
/// ```swift
/// LoggingSystem.bootstrap { label in ForwardingLogHandler(label: label, forwarder: forwarder) }
/// Logger(label: "shop.checkout").warning("payment slow", metadata: ["ms": "900"])
/// ```
public struct ForwardingLogHandler: LogHandler {
    /// Metadata added to every record of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Contextual metadata, merged under the record's own.
    public var metadataProvider: Logger.MetadataProvider?
    /// The lowest level forwarded.
    public var logLevel: Logger.Level

    private let forwarding: LogForwarding

    /// Creates a handler for one logger label.
    ///
    /// - Parameters:
    ///   - label: the logger's label, sent as `source`.
    ///   - forwarder: where records go.
    ///   - logLevel: the lowest level forwarded (`info` by default).
    ///   - now: the time source for record times.
    public init(
        label: String, forwarder: ErrorForwarder, logLevel: Logger.Level = .info,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.forwarding = LogForwarding(label: label, forwarder: forwarder, now: now)
        self.logLevel = logLevel
    }

    /// Reads or writes one metadata entry of this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Encodes the record and queues it on the forwarder.
    public func log(event: LogEvent) {
        forwarding.forward(event, metadata: metadata, provider: metadataProvider)
    }
}
