import CoreMetrics
import ErrorStreaming
import ErrorWatchUI
import Foundation
import Synchronization

/// Counts every error of a stream by type and category through swift-metrics, and keeps a per-second rate
/// for the last minute. Fed by the `Metrics` pane's own, unbounded subscription, so its totals are exact.
final class ErrorCounter: Sendable {
    private struct State {
        /// One counter per type and category (two levels, so counting builds no key string).
        var counters: [String: [ErrorCategory: Counter]] = [:]
        /// Short type names by qualified name.
        var shortNames: [String: String] = [:]
        /// Type names in order of first appearance: the numbering of the `1`…`9` filters.
        var typeOrder: [String] = []
        /// Errors per wall-clock second, keyed by whole seconds since 1970.
        var perSecond: [Int: Int] = [:]
    }

    private let state = Mutex(State())
    private let metrics: DashboardMetrics

    init(metrics: DashboardMetrics) { self.metrics = metrics }

    func count(_ event: ErrorEvent) { count(event, facts: ErrorFacts(event)) }

    /// Counts `event`, whose facts the caller already read (one cast of the error serves every counter).
    func count(_ event: ErrorEvent, facts: ErrorFacts) {
        let (qualified, category) = (facts.typeName, facts.category)
        let second = Int(event.timestamp.timeIntervalSince1970.rounded(.down))
        let counter = state.withLock { s in
            s.perSecond[second, default: 0] += 1
            if s.perSecond.count > 120 {
                let cutoff = second - 90
                s.perSecond = s.perSecond.filter { $0.key >= cutoff }
            }
            if let existing = s.counters[qualified]?[category] { return existing }
            let type = s.shortNames[qualified] ?? DashboardEvent.shortTypeName(qualified)
            s.shortNames[qualified] = type
            if !s.typeOrder.contains(type) { s.typeOrder.append(type) }
            let created = Counter(
                label: "errors", dimensions: [("type", type), ("category", category.rawValue)], factory: metrics)
            s.counters[qualified, default: [:]][category] = created
            return created
        }
        counter.increment()
    }

    /// Type names in order of first appearance.
    var typeOrder: [String] { state.withLock { $0.typeOrder } }

    /// Errors in each of the 60 seconds up to and including `now`'s second, oldest first.
    func ratePerSecond(endingAt now: Date) -> [Int] {
        let last = Int(now.timeIntervalSince1970.rounded(.down))
        let buckets = state.withLock { $0.perSecond }
        return (last - 59...last).map { buckets[$0] ?? 0 }
    }
}

/// What the counters need to know about an error, read once per event: a classified error says its type,
/// category and fingerprint without building its messages, and casting the error (which copies it) happens once.
struct ErrorFacts {
    var typeName: String
    var category: ErrorCategory
    var fingerprint: String

    init(_ event: ErrorEvent) {
        if let classified = event.error as? any ClassifiedError {
            (typeName, category, fingerprint) = (classified.typeName, classified.category, classified.fingerprint)
        } else {
            let classification = Classification(of: event.error)
            (typeName, category, fingerprint) =
                (classification.typeName, classification.category, classification.fingerprint)
        }
    }
}
