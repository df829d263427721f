import CoreMetrics
import DequeModule
import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
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
    private struct Order {
        /// Source ids in order of first appearance.
        var ids: [String] = []
        /// Ids of the sources that ended, oldest first.
        var ended: Deque<String> = []
        /// Ended sources no longer listed.
        var forgotten = 0
    }
    private let order = Mutex(Order())
    private let observer = Observer<WireEvent>()
    private struct Joins {
        var map: [String: UInt64] = [:]
        var order: Deque<String> = []
    }
    private let joins = Mutex(Joins())
    /// Whether OTLP requests are admitted (``hasRoom(for:)``).
    let admission: Mutex<IngestAdmission>

    /// How long the UI may leave posted actions undrawn before OTLP requests are refused: a frame and a half at 30
    /// a second. A key waits at most for the frame in progress and then its own, so keys stay within about twice
    /// this (measured in docs/otlp.md, "Load": 100 ms let keys wait up to 261 ms under load).
    public static let uiStallLimit: TimeInterval = 0.05

    init(
        stream: ErrorStream, inbox: ActionInbox, metrics: DashboardMetrics, now: @escaping @Sendable () -> Date,
        uiStallLimit: TimeInterval = RemoteIngest.uiStallLimit
    ) {
        self.stream = stream
        self.inbox = inbox
        self.metrics = metrics
        self.now = now
        admission = Mutex(IngestAdmission(stallLimit: uiStallLimit))
    }

    /// At most this many distinct metric series are kept from remote producers; later new ones are ignored.
    public static let maximumRemoteMetrics = 512
    private let remoteSeries = Mutex<Set<DashboardMetrics.Key>>([])

    /// Calls `body` with every event ingested (for `--record`).
    public func observe(_ body: @escaping @Sendable (WireEvent) -> Void) {
        observer.set(body)
    }

    /// The metadata key under which a remote error carries where it came from (shown as "From" in its detail).
    public static let fromKey = "errorwatch.from"

    /// Ingests one event that arrived from outside; `from` says where from (`socket #3 on unix:/tmp/ew.sock`,
    /// `file /var/log/app.ndjson`), for the detail view.
    public func ingest(_ event: WireEvent, from: String? = nil) {
        observer.notify(event)
        switch event.kind {
        case .error:
            guard let remote = RemoteError(event) else { return }
            var context = context(of: event)
            if let from { context.metadata[Self.fromKey] = from }
            let local = stream.add(remote, context: context)
            // Remember which local event the producer's sequence number became, so its handling report joins it.
            if let local, let sequence = event.sequence { remember(producerKey(event, sequence, from), as: local) }
        case .log:
            let type = event.exceptionType.map(DashboardEvent.shortTypeName) ?? ""
            inbox.post(
                event: DashboardEvent(
                    sequence: 0, timestamp: now(), kind: .log, level: event.effectiveSeverity,
                    source: event.source ?? event.serviceName ?? "remote", typeName: type,
                    message: event.body ?? event.exceptionMessage ?? "", code: event.code, category: event.category,
                    origin: event.origin ?? .user, attempt: event.attempt, metadata: event.attributes,
                    qualifiedTypeName: event.exceptionType ?? "", service: event.serviceName, from: from))
        case .metric:
            record(metric: event)
        case .status:
            guard let name = event.statusName, let state = event.statusState else { return }
            inbox.post(
                .statusChanged(
                    StatusEntry(
                        service: event.serviceName ?? "remote", name: name, state: state,
                        health: event.effectiveStatusHealth, detail: event.statusDetail ?? "",
                        changedAt: event.time)))
        case .handling:
            // How the producer's handler tree dealt with one of its errors, joined to the event it became here.
            guard let sequence = event.sequence, let outcome = event.handlingOutcome,
                let local = localSequence(for: producerKey(event, sequence, from))
            else { return }
            inbox.post(
                .handlingReported(
                    sequence: local,
                    HandlingSummary(
                        path: event.handlingPath ?? [], outcome: outcome, handled: event.handlingHandled ?? false)))
        }
    }

    /// The key of a producer's sequence number: where it came from (the connection or file), its service, host,
    /// process and the number, so replicas that share a service name and a pid never mix.
    private func producerKey(_ event: WireEvent, _ sequence: UInt64, _ from: String?) -> String {
        "\(from ?? "")|\(event.serviceName ?? "")|\(event.hostName ?? "")|\(event.pid.map(String.init) ?? "")|\(sequence)"
    }

    /// How many producer sequence numbers are remembered for joining handling reports.
    static let joinCapacity = 4_096

    private func remember(_ key: String, as local: UInt64) {
        joins.withLock { joins in
            if joins.map.updateValue(local, forKey: key) == nil { joins.order.append(key) }
            while joins.order.count > Self.joinCapacity { joins.map[joins.order.removeFirst()] = nil }
        }
    }

    private func localSequence(for key: String) -> UInt64? { joins.withLock { $0.map[key] } }

    /// Records a remote metric sample: a gauge's reading, a counter's increment or a histogram's observation.
    /// Remote metrics get their own namespace (a producer cannot overwrite the dashboard's own) and a cap on
    /// distinct series (a producer cannot grow the registry without bound).
    private func record(metric event: WireEvent) {
        guard let name = event.metricName, let value = event.metricValue, value.isFinite else { return }
        let label = "remote." + name
        var dimensions = event.attributes.sorted { $0.key < $1.key }.prefix(4).map { ($0.key, $0.value) }
        dimensions.removeAll { $0.0 == "service" }
        dimensions.append(("service", event.serviceName ?? "remote"))
        let key = DashboardMetrics.Key(label: label, dimensions: dimensions)
        let admitted = remoteSeries.withLock { series in
            if series.contains(key) { return true }
            guard series.count < Self.maximumRemoteMetrics else { return false }
            series.insert(key)
            return true
        }
        guard admitted else { return }
        if let unit = event.metricUnit { metrics.setUnit(unit, for: label, service: event.serviceName ?? "remote") }
        switch event.effectiveMetricKind {
        case .gauge:
            Gauge(label: label, dimensions: dimensions, factory: metrics).record(value)
        case .counter:
            // Increments are whole (a fraction is rounded); negative ones are ignored, as swift-metrics does.
            guard value >= 0 else { return }
            let increment = value >= 9.2e18 ? Int64.max : Int64(value.rounded())
            Counter(label: label, dimensions: dimensions, factory: metrics).increment(by: increment)
        case .histogram:
            Recorder(label: label, dimensions: dimensions, aggregate: true, factory: metrics).record(value)
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

    /// How many ended sources (closed connections, finished recordings) stay listed; older ones are forgotten
    /// and only counted, so a stream of one-shot connections costs the same per connection however long it runs.
    public static let endedSourcesKept = 100

    /// Takes newer counts for rows already shown: a row that is not shown yet, or has ended, is left alone (a
    /// snapshot taken just before a producer disconnected must not revive its row). Posts once, and only when a
    /// row changed.
    public func refresh(_ statuses: [SourceStatus]) {
        guard !statuses.isEmpty else { return }
        order.withLock { order in
            let list: [SourceStatus]? = sources.withLock { sources in
                var changed = false
                for status in statuses {
                    guard let shown = sources[status.id], shown.health != .idle, shown.health != .failing,
                        shown != status
                    else { continue }
                    sources[status.id] = status
                    changed = true
                }
                return changed ? order.ids.compactMap { sources[$0] } : nil
            }
            if let list { inbox.post(.sourcesChanged(list)) }
        }
    }

    /// Records a source's new status and publishes every source, in the order they first appeared: every live
    /// one, and the most recent ``endedSourcesKept`` that ended, with the count of those forgotten.
    public func update(_ status: SourceStatus) {
        order.withLock { order in
            let (list, forgotten): ([SourceStatus], Int?) = sources.withLock { sources in
                if sources[status.id] == nil { order.ids.append(status.id) }
                sources[status.id] = status
                var forgotten: Int?
                if status.health == .idle || status.health == .failing, !order.ended.contains(status.id) {
                    order.ended.append(status.id)
                    if order.ended.count > Self.endedSourcesKept {
                        let gone = order.ended.removeFirst()
                        sources[gone] = nil
                        if let index = order.ids.firstIndex(of: gone) { order.ids.remove(at: index) }
                        order.forgotten += 1
                        forgotten = order.forgotten
                    }
                }
                return (order.ids.compactMap { sources[$0] }, forgotten)
            }
            // Posted under the lock so two racing updates reach the inbox in the order they were made; the
            // inbox's lock is a leaf, never held while taking this one.
            inbox.post(.sourcesChanged(list))
            if let forgotten { inbox.post(.sourcesForgotten(forgotten)) }
        }
    }

    /// Every source known, in the order they first appeared.
    public var statuses: [SourceStatus] {
        order.withLock { order in sources.withLock { sources in order.ids.compactMap { sources[$0] } } }
    }
}

extension SourceStatus {
    /// The `Sources` pane's view of a producer connected to `--listen` on `listener`; rows are keyed by listener
    /// and producer, so two listeners' producers never share a row.
    init(_ producer: ProducerStatus, listener: Endpoint? = nil) {
        var detail: [String] = []
        if let pid = producer.pid { detail.append("pid \(pid)") }
        if let host = producer.hostName { detail.append(host) }
        detail.append(producer.peer)
        let health: StatusHealth
        switch producer.state {
        case .connected: health = producer.errors.badLines > 0 ? .degraded : .ok
        case .disconnected(.closedByPeer), .disconnected(.listenerShutdown): health = .idle
        case .disconnected: health = .failing
        }
        self.init(
            id: "socket\(producer.id)" + (listener.map { "@\($0)" } ?? ""), kind: .socket, name: producer.displayName,
            detail: detail.joined(separator: " · "),
            state: producer.state.description, health: health, events: producer.eventsReceived,
            badLines: producer.errors.badLines + producer.errors.truncated,
            lastProblem: producer.lastError?.description, lastEventAt: producer.lastEventAt)
    }
}
