import CoreMetrics
import ErrorStreaming
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// Counts every error of a stream, exactly and in bounded memory: the total, per category, and per type in a
/// table of the ``typeTableCapacity`` most frequent types with an exact `other` row (``TopKCounts``), plus a
/// per-second rate for the last minute. Called synchronously where errors are added (the stream's `onAdd`), so it
/// can never fall behind a storm and hold a backlog; the cost per error is one lock and O(log K).
final class ErrorCounter: Sendable {
    /// The most error types counted by name; the rest are counted together as `other`.
    static let typeTableCapacity = 1_000

    private struct State {
        var types = TopKCounts<String>(capacity: ErrorCounter.typeTableCapacity)
        var byCategory: [ErrorCategory: Int] = [:]
        /// Errors nobody classified (log lines, producers that sent no category): counted apart, not as a category.
        var unclassified = 0
        /// Errors per wall-clock second, keyed by whole seconds since 1970.
        var perSecond: [Int: Int] = [:]
        /// Errors of this process (not from another one): the ones the Logs pane learns of through a subscription.
        var local = 0

        mutating func count(_ event: ErrorEvent, facts: ErrorFacts, type: String) {
            let second = Int(event.timestamp.timeIntervalSince1970.rounded(.down))
            types.add(type)
            if !facts.isRemote { local += 1 }
            if facts.classified { byCategory[facts.category, default: 0] += 1 } else { unclassified += 1 }
            perSecond[second, default: 0] += 1
            if perSecond.count > 120 {
                let cutoff = second - 90
                perSecond = perSecond.filter { $0.key >= cutoff }
            }
        }
    }

    private let state = Mutex(State())
    /// The backend's `errors` counter of each category, made once: building a swift-metrics `Counter` asks the
    /// factory (a lookup under its lock and an array of dimensions), too much to do for every error.
    private let categoryCounters: [ErrorCategory: Counter]

    /// - Parameter metrics: the backend whose `errors` counters (one per category: a handful of series, however
    ///   many types) an exporter would see.
    init(metrics: DashboardMetrics) {
        var counters: [ErrorCategory: Counter] = [:]
        for category in ErrorCategory.allCases {
            counters[category] = Counter(
                label: "errors", dimensions: [("category", category.rawValue)], factory: metrics)
        }
        categoryCounters = counters
    }

    func count(_ event: ErrorEvent) { count(event, facts: ErrorFacts(event)) }

    /// Counts `event`, whose facts the caller already read (one cast of the error serves every counter).
    func count(_ event: ErrorEvent, facts: ErrorFacts) {
        let type = DashboardEvent.shortTypeName(facts.typeName)
        state.withLock { $0.count(event, facts: facts, type: type) }
        if facts.classified { categoryCounters[facts.category]?.increment() }
    }

    /// Counts errors added together, in order, under one lock: as ``count(_:facts:)`` one by one.
    func count(contentsOf events: [ErrorEvent], facts: [ErrorFacts]) {
        let types = facts.map { DashboardEvent.shortTypeName($0.typeName) }
        state.withLock { s in
            for index in events.indices { s.count(events[index], facts: facts[index], type: types[index]) }
        }
        // The backend's counters hear each category's share of the batch once.
        var byCategory: [ErrorCategory: Int] = [:]
        for facts in facts where facts.classified { byCategory[facts.category, default: 0] += 1 }
        for (category, count) in byCategory { categoryCounters[category]?.increment(by: count) }
    }

    /// The counts as the Metrics pane shows them.
    /// Errors of this process counted so far (remote ones aside).
    var localTotal: Int { state.withLock { $0.local } }

    struct Totals {
        var total: Int
        /// The types listed, in the order they were first listed (the `1`…`9` filters' numbering).
        var byType: [MetricsSnapshot.TypeCount]
        /// Errors of every type not listed.
        var otherTypes: Int
        var byCategory: [ErrorCategory: Int]
        var unclassified: Int
    }

    /// Every count, read at once.
    var totals: Totals {
        state.withLock { s in
            Totals(
                total: s.types.total,
                byType: s.types.top.map { MetricsSnapshot.TypeCount(name: $0.name, count: $0.count) },
                otherTypes: s.types.other, byCategory: s.byCategory, unclassified: s.unclassified)
        }
    }

    /// Type names listed, in order of first listing.
    var typeOrder: [String] { totals.byType.map(\.name) }

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
    /// The producing service of a remote error; `nil` for this process's own.
    var service: String?
    /// When it happened: a remote error's own time, else when it was added.
    var time: Date
    /// A remote error's code as sent (empty when it sent none); `nil` for this process's own.
    var codeText: String?
    /// Whether anybody said which category it is (a remote producer may not).
    var classified = true
    /// The producer's `service.version` and `deployment.environment.name`, when it sent them.
    var version: String?
    var environment: String?
    /// Whether an earlier reading of its file counted it in the store already.
    var countedBefore = false
    /// Where the dashboard read it: a remote error's receiver's words, `this process` for its own.
    var from = "this process"
    /// Whether another process sent it.
    var isRemote = false

    init(_ event: ErrorEvent) {
        time = event.timestamp
        if let remote = event.context.remote {
            let provenance = remote.provenance
            (typeName, category, fingerprint, service) =
                (remote.typeName, remote.category, remote.fingerprint, provenance.service)
            time = provenance.time
            codeText = remote.codeText ?? ""
            classified = remote.isClassified
            (version, environment) = (provenance.serviceVersion, provenance.environment)
            countedBefore = provenance.countedBefore
            from = provenance.receivedFrom ?? "elsewhere"
            isRemote = true
        } else if let classified = event.error as? any ClassifiedError {
            (typeName, category, fingerprint) = (classified.typeName, classified.category, classified.fingerprint)
        } else {
            let classification = Classification(of: event.error)
            (typeName, category, fingerprint) =
                (classification.typeName, classification.category, classification.fingerprint)
        }
    }
}
