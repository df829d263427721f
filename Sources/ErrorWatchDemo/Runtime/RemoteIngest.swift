import CoreMetrics
import ErrorStreaming
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Turns events from outside the process (sockets, tailed files, recordings) into what the dashboard consumes.
///
/// A remote error becomes a ``RemoteError`` added to the local ``ErrorStream`` with the producer's context, so
/// the `Errors`, `Logs` and `Metrics` feeds treat it exactly like a local one (coalescing, counts, filters).
/// A remote log line goes straight to the `Logs` pane; a metric is recorded in the metrics backend. Each
/// source's status is kept here and published to the `Sources` pane.
public final class RemoteIngest: Sendable {
    let stream: ErrorStream
    let inbox: ActionInbox
    let metrics: DashboardMetrics
    let now: @Sendable () -> Date
    private let sources = Mutex<[String: SourceStatus]>([:])
    private let order = Mutex<[String]>([])
    private let observer = Observer<WireEvent>()

    init(stream: ErrorStream, inbox: ActionInbox, metrics: DashboardMetrics, now: @escaping @Sendable () -> Date) {
        self.stream = stream
        self.inbox = inbox
        self.metrics = metrics
        self.now = now
    }

    /// Calls `body` with every event ingested (for `--record`).
    public func observe(_ body: @escaping @Sendable (WireEvent) -> Void) {
        observer.set(body)
    }

    /// Ingests one event that arrived from outside.
    public func ingest(_ event: WireEvent) {
        observer.notify(event)
        switch event.kind {
        case .error:
            guard let remote = RemoteError(event) else { return }
            stream.add(remote, context: context(of: event))
        case .log:
            let type = event.exceptionType.map(DashboardEvent.shortTypeName) ?? ""
            inbox.post(
                event: DashboardEvent(
                    sequence: 0, timestamp: now(), kind: .log, level: event.effectiveSeverity,
                    source: event.source ?? event.serviceName ?? "remote", typeName: type,
                    message: event.body ?? event.exceptionMessage ?? "", code: event.code, category: event.category,
                    origin: event.origin ?? .user, attempt: event.attempt, metadata: event.attributes))
        case .metric:
            guard let name = event.metricName, let value = event.metricValue else { return }
            Recorder(label: name, dimensions: [("service", event.serviceName ?? "remote")], factory: metrics)
                .record(value)
        }
    }

    private func context(of event: WireEvent) -> ErrorContext {
        var metadata = event.attributes
        if let service = event.serviceName { metadata["service.name"] = service }
        if let pid = event.pid { metadata["process.pid"] = String(pid) }
        if let host = event.hostName { metadata["host.name"] = host }
        return ErrorContext(
            source: event.source ?? event.serviceName ?? "remote", severity: event.effectiveSeverity,
            origin: event.origin ?? .user, attempt: event.attempt, metadata: metadata)
    }

    /// Records a source's new status and publishes every source, in the order they first appeared.
    public func update(_ status: SourceStatus) {
        let list: [SourceStatus] = order.withLock { order in
            sources.withLock { sources in
                if sources[status.id] == nil { order.append(status.id) }
                sources[status.id] = status
                return order.compactMap { sources[$0] }
            }
        }
        inbox.post(.sourcesChanged(list))
    }

    /// Every source known, in the order they first appeared.
    public var statuses: [SourceStatus] {
        order.withLock { order in sources.withLock { sources in order.compactMap { sources[$0] } } }
    }
}

extension SourceStatus {
    /// The `Sources` pane's view of a producer connected to `--listen`.
    init(_ producer: ProducerStatus) {
        var detail: [String] = []
        if let pid = producer.pid { detail.append("pid \(pid)") }
        if let host = producer.hostName { detail.append(host) }
        detail.append(producer.peer)
        let health: FlowStatus.Health
        switch producer.state {
        case .connected: health = producer.errors.badLines > 0 ? .degraded : .ok
        case .disconnected(.closedByPeer), .disconnected(.listenerShutdown): health = .idle
        case .disconnected: health = .failing
        }
        self.init(
            id: "socket\(producer.id)", kind: .socket, name: producer.displayName,
            detail: detail.joined(separator: " · "),
            state: producer.state.description, health: health, events: producer.eventsReceived,
            badLines: producer.errors.badLines + producer.errors.truncated,
            lastProblem: producer.lastError?.description, lastEventAt: producer.lastEventAt)
    }
}
