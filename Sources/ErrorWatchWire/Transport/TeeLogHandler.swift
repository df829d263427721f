import Foundation
import Logging

/// A swift-log `LogHandler` that writes every record through another handler (the console, a file) and also sends
/// it to an ``ErrorForwarder`` as a `log` event.
///
/// It does what `MultiplexLogHandler([console, ForwardingLogHandler(…)])` does, for less. Metadata, the metadata
/// provider and the log level live in the wrapped handler alone: setting a metadata key, which a server framework
/// does on every request (Hummingbird's `hb.request.id`), costs what it costs the wrapped handler, where the
/// multiplexer copies its array of handlers and sets the key in each of them. Records at or above the wrapped
/// handler's level are written by it and forwarded.
///
/// ```swift
/// LoggingSystem.bootstrap { label in
///     TeeLogHandler(StreamLogHandler.standardError(label: label), label: label, forwarder: forwarder)
/// }
/// ```
public struct TeeLogHandler<Wrapped: LogHandler>: LogHandler {
    /// The handler every record is written through first.
    public var wrapped: Wrapped
    private let forwarding: LogForwarding

    /// Creates a handler for one logger label.
    ///
    /// - Parameters:
    ///   - wrapped: the handler that writes every record (its level decides which records are written and sent).
    ///   - label: the logger's label, sent as `source`.
    ///   - forwarder: where records go.
    ///   - now: the time source for record times.
    public init(
        _ wrapped: Wrapped, label: String, forwarder: ErrorForwarder, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.wrapped = wrapped
        self.forwarding = LogForwarding(label: label, forwarder: forwarder, now: now)
    }

    /// The wrapped handler's metadata.
    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    /// The wrapped handler's metadata provider.
    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    /// The wrapped handler's level: the lowest level written and forwarded.
    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    /// Reads or writes one metadata entry of the wrapped handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    /// Writes the record through the wrapped handler, then encodes it and queues it on the forwarder.
    public func log(event: LogEvent) {
        wrapped.log(event: event)
        forwarding.forward(event, metadata: wrapped.metadata, provider: wrapped.metadataProvider)
    }
}

/// What a log handler needs to forward records, kept behind one reference so that copying the handler (which a
/// `Logger` does whenever its metadata changes) copies one pointer instead of a label, a forwarder and a closure.
final class LogForwarding: Sendable {
    let label: String
    let forwarder: ErrorForwarder
    let now: @Sendable () -> Date
    private let encoder: WireEncoder

    init(label: String, forwarder: ErrorForwarder, now: @escaping @Sendable () -> Date) {
        self.label = label
        self.forwarder = forwarder
        self.now = now
        self.encoder = WireEncoder(source: forwarder.source)
    }

    /// Encodes the record, with the handler's metadata under its own, and queues it on the forwarder.
    func forward(_ event: LogEvent, metadata: Logger.Metadata, provider: Logger.MetadataProvider?) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        do {
            try encoder.appendLogLine(
                level: event.level, message: event.message.description, label: label,
                metadata: event.mergedMetadata(handler: metadata, provider: provider), error: event.error,
                time: now(), to: &line)
            forwarder.enqueue(line)
        } catch {
            forwarder.countDropped()
        }
    }
}
