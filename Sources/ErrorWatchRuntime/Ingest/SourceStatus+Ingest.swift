import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI
import ErrorWatchWire

// How each way in looks in the `Sources` pane: a socket producer, an OTLP sender, a listener over its budgets.

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

extension SourceStatus {
    /// The `Sources` pane's view of a sender on a receiver of requests (one row per OTLP resource, per Sentry client
    /// and release, or per client address for requests that never decoded), in its protocol's words: `3 exports ·
    /// 1 refused (503)`, `2 envelopes · 4 items skipped · 1 refused (429)`.
    init(_ sender: SenderStatus, id: String, kind: Kind, requests noun: (String, String), refusal: String) {
        var detail: [String] = []
        if let pid = sender.pid { detail.append("pid \(pid)") }
        if let host = sender.hostName { detail.append(host) }
        detail.append(sender.peer)
        var state = "\(sender.requests) \(sender.requests == 1 ? noun.0 : noun.1)"
        if sender.attachments > 0 { state += " · \(sender.attachments) attachments (not kept)" }
        if kind == .sentry, sender.rejected > 0 { state += " · \(sender.rejected) items skipped" }
        if sender.refused > 0 { state += " · \(sender.refused) refused (\(refusal))" }
        // What went wrong in requests that decoded (OTLP's rejected records) and requests that did not.
        let problems = Int(clamping: (kind == .sentry ? 0 : sender.rejected) + sender.badRequests)
        let health: StatusHealth =
            problems > 0 || sender.refused > 0 || (kind == .sentry && sender.lastProblem != nil) ? .degraded : .ok
        self.init(
            id: id, kind: kind, name: sender.displayName, detail: detail.joined(separator: " · "), state: state,
            health: health, events: sender.events, badLines: problems, lastProblem: sender.lastProblem,
            lastEventAt: sender.lastEventAt)
    }

    /// The row of an OTLP sender on `receiver`.
    init(_ sender: SenderStatus, receiver: OTLPEndpoint) {
        self.init(
            sender, id: Self.otlpID(key: sender.key, receiver: receiver), kind: .otlp, requests: ("export", "exports"),
            refusal: receiver.transport == .grpc ? "UNAVAILABLE" : "503")
    }

    /// The row of a Sentry SDK client on `receiver`.
    init(_ client: SenderStatus, receiver: SentryEndpoint) {
        self.init(
            client, id: Self.sentryID(key: client.key, receiver: receiver), kind: .sentry,
            requests: ("envelope", "envelopes"), refusal: "429")
    }

    /// The id of the row of the Sentry client `key` on `receiver`.
    static func sentryID(key: String, receiver: SentryEndpoint) -> String { "sentry:\(key)@\(receiver)" }
}

extension SourceStatus {
    /// The id of the row of the OTLP sender `key` on `receiver`.
    static func otlpID(key: String, receiver: OTLPEndpoint) -> String { "otlp:\(key)@\(receiver)" }

    /// The row of an OTLP receiver that had to evict, refuse or close connections, or refuse bodies, to stay within
    /// its limits.
    init(receiver endpoint: OTLPEndpoint, _ statistics: OTLPReceiver.Statistics, limits: OTLPReceiver.Limits) {
        self.init(
            receiver: "\(endpoint)", statistics, limits: limits, kind: .otlp, countsCalls: endpoint.transport == .grpc)
    }

    /// The row of an HTTP receiver (OTLP, Sentry) that had to evict, refuse or close connections, or refuse bodies,
    /// to stay within its limits.
    /// `countsCalls`: the receiver speaks gRPC, where a late request ends a call, not a connection.
    init(
        receiver endpoint: String, _ statistics: HTTPReceiverStatistics, limits: HTTPReceiverLimits, kind: Kind,
        countsCalls: Bool = false
    ) {
        var parts: [String] = []
        func connections(_ count: UInt64) -> String { count == 1 ? "1 connection" : "\(count) connections" }
        if statistics.evictedConnections > 0 {
            parts.append(
                "evicted \(connections(statistics.evictedConnections)) (limit \(limits.maximumConnections), oldest "
                    + "unfinished request first)")
        }
        if statistics.refusedConnections > 0 {
            parts.append("refused \(connections(statistics.refusedConnections)) (all busy)")
        }
        if statistics.timedOutRequests > 0, countsCalls {
            let calls = statistics.timedOutRequests == 1 ? "1 call" : "\(statistics.timedOutRequests) calls"
            parts.append("ended \(calls) whose message was not in by the request deadline")
        } else if statistics.timedOutRequests > 0 {
            parts.append("closed \(connections(statistics.timedOutRequests)) past the request deadline")
        }
        if statistics.overBodyBudget > 0 {
            let requests = statistics.overBodyBudget == 1 ? "1 request" : "\(statistics.overBodyBudget) requests"
            parts.append("refused \(requests) over the body budget (\(limits.bodyBudgetBytes) bytes)")
        }
        self.init(
            id: "receiver:\(endpoint)", kind: kind, name: endpoint, detail: "receiver budgets",
            state: parts.joined(separator: ", "), health: .degraded)
    }
}

extension SourceStatus {
    /// The row of a listener that had to refuse or cut off connections to stay within its budgets.
    init(listener endpoint: Endpoint, _ statistics: FeedListener.Statistics, configuration: FeedListener.Configuration)
    {
        var parts: [String] = []
        func connections(_ count: UInt64) -> String { count == 1 ? "1 connection" : "\(count) connections" }
        if statistics.acceptPauses > 0 {
            let times = statistics.acceptPauses == 1 ? "once" : "\(statistics.acceptPauses) times"
            parts.append("full \(times) (limit \(configuration.maximumConnections)): newcomers waited")
        }
        if statistics.evictedConnections > 0 {
            parts.append("evicted \(connections(statistics.evictedConnections)) holding lines to admit newcomers")
        }
        if statistics.closedForPartialLines > 0 {
            parts.append("closed \(connections(statistics.closedForPartialLines)) holding unfinished lines")
        }
        if statistics.closedStalledMidLine > 0 {
            parts.append("closed \(connections(statistics.closedStalledMidLine)) with a line unfinished in time")
        }
        self.init(
            id: "listener:\(endpoint)", kind: .listener, name: "\(endpoint)", detail: "listener budgets",
            state: parts.joined(separator: ", "), health: .degraded)
    }
}
