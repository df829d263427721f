import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation

extension RemoteIngest {
    /// A Sentry receiver on `endpoint` that feeds this ingest: each accepted envelope's events are ingested (from
    /// `sentry CLIENT RELEASE on sentry:HOST:PORT`), errors carrying their ``ExceptionReport``, and each SDK client
    /// is a row in the Sources pane. It answers `429` while the UI is behind (``hasRoom(for:)``).
    public func makeSentryReceiver(
        endpoint: SentryEndpoint, requiredKey: String? = nil,
        limits: HTTPReceiverLimits = HTTPReceiverLimits(maximumBodyBytes: 20 * 1024 * 1024)
    ) -> SentryReceiver {
        SentryReceiver(
            endpoint: endpoint, requiredKey: requiredKey, limits: limits, hasRoom: { [self] in hasRoom(for: $0) },
            onStatus: { [self] changed, forgotten in
                update(
                    changed.map { SourceStatus($0, receiver: endpoint) },
                    forgetting: forgotten.map { SourceStatus.sentryID(key: $0, receiver: endpoint) })
            },
            onEvents: { [self] client, events in
                let from = "sentry \(client.key) on \(endpoint)"
                for mapped in events { ingest(mapped, from: from) }
            })
    }

    /// Ingests one event a Sentry item became, with its report.
    public func ingest(_ mapped: SentryMappedEvent, from: String?) {
        ingest(mapped.event, from: from) { remote in
            remote.report = mapped.report
        }
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
