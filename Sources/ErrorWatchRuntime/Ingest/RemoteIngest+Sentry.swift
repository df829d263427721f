import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

extension RemoteIngest {
    /// A Sentry receiver on `endpoint` that feeds this ingest: each accepted envelope's events are ingested (from
    /// `sentry CLIENT RELEASE on sentry:HOST:PORT`), errors carrying their ``ExceptionReport``; transactions' spans
    /// are kept in the trace store like OTLP spans (``ingest(spans:)``); each SDK client is a row in the Sources
    /// pane. It answers `429` while the UI is behind (``hasRoom(for:)``).
    public func makeSentryReceiver(
        endpoint: SentryEndpoint, requiredKey: String? = nil,
        limits: HTTPReceiverLimits = HTTPReceiverLimits(maximumBodyBytes: 20 * 1024 * 1024)
    ) -> SentryReceiver {
        // Rows and "from" name the endpoint bound (port 0 becomes the port chosen), known once it is started.
        let link = SentryReceiverLink()
        let bound: @Sendable () -> SentryEndpoint = { link.receiver?.localEndpoint ?? endpoint }
        let receiver = SentryReceiver(
            endpoint: endpoint, requiredKey: requiredKey, limits: limits, hasRoom: { [self] in hasRoom(for: $0) },
            onStatus: { [self] changed, forgotten in
                let receiver = bound()
                update(
                    changed.map { SourceStatus($0, receiver: receiver) },
                    forgetting: forgotten.map { SourceStatus.sentryID(key: $0, receiver: receiver) })
            },
            onSpans: { [self] _, spans in ingest(spans: spans) },
            onEvents: { [self] client, events in
                let from = "sentry \(client.key) on \(bound())"
                ingestBatch { batch in
                    for mapped in events { ingest(mapped, from: from, channel: .sentry, into: &batch) }
                }
            })
        link.receiver = receiver
        return receiver
    }

    /// Ingests one event a Sentry item became, with its report: on the wire event (`exception.report`), so
    /// `--record` keeps it and a replayed error's detail is the live one's.
    /// Part of `batch` (``RemoteIngest/ingestBatch(_:)``).
    public func ingest(
        _ mapped: SentryMappedEvent, from: String?, channel: EventChannel? = .sentry, into batch: inout Batch
    ) {
        var event = mapped.event
        event.report = mapped.report
        ingest(event, from: from, channel: channel, into: &batch)
    }

    /// Shows `receiver`'s budgets row when its statistics changed since `shown`; returns what is shown now.
    func publishStatistics(of receiver: SentryReceiver, shown: HTTPReceiverStatistics) -> HTTPReceiverStatistics {
        let statistics = receiver.statistics
        guard statistics != shown else { return shown }
        update(
            SourceStatus(
                receiver: "\(receiver.localEndpoint ?? receiver.endpoint)", statistics, limits: receiver.limits,
                kind: .sentry))
        return statistics
    }
}

/// A weak link from a receiver's callbacks back to the receiver, so they can name the endpoint it bound without the
/// receiver keeping itself alive.
final class SentryReceiverLink: Sendable {
    private struct Weak {
        weak var receiver: SentryReceiver?
    }

    private let link = Mutex(Weak())

    var receiver: SentryReceiver? {
        get { link.withLock { $0.receiver } }
        set { link.withLock { $0.receiver = newValue } }
    }
}
