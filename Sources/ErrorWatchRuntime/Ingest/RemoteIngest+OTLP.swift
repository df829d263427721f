import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire
import Foundation

extension RemoteIngest {
    /// Whether the dashboard can take more records now: the UI has drained what was posted for it within the
    /// last ``uiStallLimit``, 50 ms (``IngestAdmission`` has the rule and why).
    ///
    /// An OTLP receiver asks before it maps a batch and answers `503` with `Retry-After` when there is no room, so
    /// an SDK backs off (and the cores go back to the UI) instead of the dashboard stopping answering keys. A full
    /// inbox is not "no room": it samples what it cannot show, and every admitted record is counted exactly as it
    /// is ingested, whatever its size and whatever the inbox keeps.
    public func hasRoom(for count: Int) -> Bool {
        let backlog = inbox.backlog
        let at = now()
        return admission.withLock { $0.admits(backlog, at: at) }
    }

    /// The receiver `endpoint` asks for, OTLP/HTTP or OTLP/gRPC by its ``OTLPEndpoint/transport``, feeding this
    /// ingest the same way over either: the same admission (`503` with `Retry-After`, or `UNAVAILABLE` with a
    /// retry delay, when the UI is behind), each accepted batch's events ingested from
    /// `otlp SERVICE/INSTANCE on ENDPOINT`, each sender a row in the Sources pane (the rows a request changed
    /// posted once together, those the receiver forgot removed), spans into the same trace store.
    public func makeOTLPServer(endpoint: OTLPEndpoint, limits: OTLPReceiver.Limits = OTLPReceiver.Limits())
        -> any OTLPServer
    {
        let feed = otlpFeed(endpoint)
        let (traces, hasRoom, onStatus, onSpans, onEvents) =
            (otlpTraceMemory, feed.hasRoom, feed.onStatus, feed.onSpans, feed.onEvents)
        switch endpoint.transport {
        case .http:
            return OTLPReceiver(
                endpoint: endpoint, limits: limits, traces: traces, hasRoom: hasRoom, onStatus: onStatus,
                onSpans: onSpans, onEvents: onEvents)
        case .grpc:
            return OTLPGRPCReceiver(
                endpoint: endpoint, limits: limits, traces: traces, hasRoom: hasRoom, onStatus: onStatus,
                onSpans: onSpans, onEvents: onEvents)
        }
    }

    /// How an OTLP receiver on `endpoint` (either transport) feeds this ingest.
    struct OTLPFeed {
        /// Admission: ``hasRoom(for:)``.
        var hasRoom: @Sendable (Int) -> Bool
        /// The senders' rows a request changed, posted once together; those the receiver forgot, removed.
        var onStatus: @Sendable ([SenderStatus], [String]) -> Void
        /// Accepted spans into the trace store and the request metrics.
        var onSpans: @Sendable (SenderStatus, [TraceSpan]) -> Void
        /// Accepted events, ingested from `otlp SERVICE/INSTANCE on ENDPOINT`.
        var onEvents: @Sendable (SenderStatus, [WireEvent]) -> Void
    }

    func otlpFeed(_ endpoint: OTLPEndpoint) -> OTLPFeed {
        OTLPFeed(
            hasRoom: { [self] in hasRoom(for: $0) },
            onStatus: { [self] changed, forgotten in
                update(
                    changed.map { SourceStatus($0, receiver: endpoint) },
                    forgetting: forgotten.map { SourceStatus.otlpID(key: $0, receiver: endpoint) })
            },
            onSpans: { [self] _, spans in ingest(spans: spans) },
            onEvents: { [self] source, events in
                let from = "otlp \(source.key) on \(endpoint)"
                ingestBatch { batch in
                    for event in events { ingest(event, from: from, channel: .otlp, into: &batch) }
                }
            })
    }

    /// Keeps spans a receiver accepted in the trace store (the traces errors belong to reach their detail views as
    /// spans arrive), counts the server and consumer spans as requests for the Metrics pane, and the calls between
    /// services the store found for the service map.
    public func ingest(spans: [TraceSpan]) {
        serviceGraph.record(traces.insert(spans))
        requestMetrics.record(spans)
    }

    /// What the trace store holds and evicted so far.
    public var traceStatistics: TraceStore.Statistics { traces.statistics }

    /// Shows the trace store's row when its statistics changed since `shown` (polled once a second, like the
    /// receivers' budgets); returns what is shown now.
    func publishTraceStatistics(shown: TraceStore.Statistics) -> TraceStore.Statistics {
        let statistics = traces.statistics
        guard statistics != shown else { return shown }
        update(SourceStatus(traceStore: statistics, budget: traces.budget))
        return statistics
    }

    /// Shows `receiver`'s budgets row (evictions, refusals, deadlines, the body budget) when its statistics changed
    /// since `shown`; returns what is shown now. Polled once a second, so an eviction storm costs one post a second.
    func publishStatistics(of receiver: any OTLPServer, shown: OTLPReceiver.Statistics) -> OTLPReceiver.Statistics {
        let statistics = receiver.statistics
        guard statistics != shown else { return shown }
        update(SourceStatus(receiver: receiver.localEndpoint ?? receiver.endpoint, statistics, limits: receiver.limits))
        return statistics
    }
}
