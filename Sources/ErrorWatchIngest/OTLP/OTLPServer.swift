/// A receiver of OTLP over one transport, as the dashboard runs it: ``OTLPReceiver`` (OTLP/HTTP) and
/// ``OTLPGRPCReceiver`` (OTLP/gRPC). Both feed the same decoding and mapping; the runtime starts, watches and stops
/// them alike.
public protocol OTLPServer: Sendable {
    /// The endpoint asked for.
    var endpoint: OTLPEndpoint { get }
    /// The limits in force.
    var limits: OTLPReceiver.Limits { get }
    /// The endpoint actually bound (port 0 becomes the port chosen), once started.
    var localEndpoint: OTLPEndpoint? { get }
    /// What the receiver had to do to stay within its limits so far.
    var statistics: OTLPReceiver.Statistics { get }
    /// Every sender heard from.
    var sources: [SenderStatus] { get }

    /// Starts listening; throws a ``ErrorWatchWire/WireTransportError/cannotListen(endpoint:reason:)`` when the
    /// address cannot be bound (a port in use).
    func start() async throws
    /// Stops accepting and closes every connection.
    func shutdown() async
}

extension OTLPReceiver: OTLPServer {}
