import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation

extension RemoteIngest {
    /// An OTLP/gRPC receiver on `endpoint` that feeds this ingest exactly as ``makeOTLPReceiver(endpoint:limits:)``
    /// does for OTLP/HTTP: the same admission (`UNAVAILABLE` with a retry delay when the UI is behind), the same
    /// "from" names, the same Sources rows, spans into the same trace store.
    public func makeOTLPGRPCReceiver(
        endpoint: OTLPEndpoint, limits: OTLPReceiver.Limits = OTLPReceiver.Limits()
    ) -> OTLPGRPCReceiver {
        let feed = otlpFeed(endpoint)
        return OTLPGRPCReceiver(
            endpoint: endpoint, limits: limits, traces: otlpTraceMemory, hasRoom: feed.hasRoom,
            onStatus: feed.onStatus, onSpans: feed.onSpans, onEvents: feed.onEvents)
    }

    /// The receiver `endpoint` asks for: OTLP/HTTP or OTLP/gRPC by its ``OTLPEndpoint/transport``.
    public func makeOTLPServer(endpoint: OTLPEndpoint, limits: OTLPReceiver.Limits = OTLPReceiver.Limits())
        -> any OTLPServer
    {
        switch endpoint.transport {
        case .http: makeOTLPReceiver(endpoint: endpoint, limits: limits)
        case .grpc: makeOTLPGRPCReceiver(endpoint: endpoint, limits: limits)
        }
    }
}
