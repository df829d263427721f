import OrderedCollections

/// How each action folds with the ones waiting for the UI thread: the rule lives with the action, so whoever
/// queues actions (the runtime's inbox) folds them without knowing what they mean.
extension DashboardAction {
    /// This action's folding rule. Events join the bounded batch; alerts, statuses and handling reports keep the
    /// latest per key; the lists of sources, the forgotten count and the metrics sample keep the latest; issue
    /// samples merge; everything else is kept in order.
    public var coalescing: Coalescing {
        switch self {
        case .eventReceived(let event): .event(event)
        case .alertReceived(let alert): .latest(.alerts, key: .name(alert.fingerprint))
        case .statusChanged(let status): .latest(.statuses, key: .name(status.key))
        case .handlingReported(let sequence, _): .latest(.handling, key: .number(sequence))
        case .issuesSampled: .merge(.issues)
        case .sourcesChanged: .latest(.sources, key: .only)
        case .sourcesForgotten: .latest(.forgottenSources, key: .only)
        case .metricsSampled: .latest(.metrics, key: .only)
        case .traceChanged(let trace): .latest(.traces, key: .name(trace.traceID))
        case .traceSummarized(let summary): .latest(.traceRows, key: .name(summary.traceID))
        case .storeStatusChanged: .latest(.store, key: .only)
        case .keyPressed, .eventsReceived, .appAttached, .receiversListening, .tick, .frameStarted, .resized, .themeLoaded, .themeFailed,
            .statusMessage, .themeSelected, .colorDepthDetected:
            .append
        }
    }

    /// This action folded into `earlier`, the one waiting in the same ``Coalescing/merge(_:)`` lane (`nil` when
    /// none waits), so that reducing the result does what reducing both would. Issue samples: issues upserted by
    /// fingerprint in first-arrival order, issues evicted afterwards taken out, evictions accumulated (the most
    /// recent `limit` kept). Actions without a merge rule replace `earlier`.
    public func merged(after earlier: DashboardAction?, limit: Int) -> DashboardAction {
        guard case .issuesSampled(let changed, let evicted) = self else { return self }
        var issues: OrderedDictionary<String, IssueRecord> = [:]
        var evictions: [String] = []
        if case .issuesSampled(let earlierChanged, let earlierEvicted) = earlier {
            for issue in earlierChanged { issues[issue.fingerprint] = issue }
            evictions = earlierEvicted
        }
        for issue in changed { issues[issue.fingerprint] = issue }
        for fingerprint in evicted { issues.removeValue(forKey: fingerprint) }
        evictions += evicted
        if evictions.count > limit { evictions.removeFirst(evictions.count - limit) }
        return .issuesSampled(changed: Array(issues.values), evicted: evictions)
    }
}
