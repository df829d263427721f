import DequeModule
import ErrorStreaming
import ErrorWatchUI
import Foundation
import Synchronization

/// Groups every error of the stream by fingerprint, background ones included, for the Issues view: exact counts
/// (fed by the counting subscription, which never drops), services, first and last seen, a per-second history of
/// the last minute and the most recent occurrences.
///
/// Counting stays cheap: an occurrence keeps its raw event and is turned into text only when a sample that
/// includes it is taken. At most ``capacity`` issues are kept; beyond that the least recently seen is forgotten
/// (and reported as evicted, so the view forgets it too).
final class IssueTracker: Sendable {
    fileprivate struct Issue {
        var record: IssueRecord
        /// Occurrences not yet turned into text, newest last.
        var pending: Deque<ErrorEvent> = []
        /// Occurrences per whole second since 1970.
        var seconds: [Int: Int] = [:]
        var changed = true
    }

    private struct State {
        var issues: [String: Issue] = [:]
        var evicted: [String] = []
    }

    private let state = Mutex(State())
    /// The most issues kept.
    let capacity: Int

    init(capacity: Int = DashboardState.issueCapacity) { self.capacity = max(1, capacity) }

    /// How much of an occurrence's message is kept: its first line, at most this many characters (the list shows
    /// one row; opening the occurrence shows the whole event from Logs).
    static let occurrenceTextLimit = 300

    static func summary(of message: String) -> String {
        let firstLine = message.prefix { $0 != "\n" && $0 != "\r" }
        return firstLine.count <= occurrenceTextLimit ? String(firstLine) : firstLine.prefix(occurrenceTextLimit) + "…"
    }

    /// Counts one error.
    func count(_ event: ErrorEvent) { count(event, facts: ErrorFacts(event)) }

    /// Counts `event`, whose facts the caller already read; only a new issue needs the whole classification.
    func count(_ event: ErrorEvent, facts: ErrorFacts) {
        let (fingerprint, category) = (facts.fingerprint, facts.category)
        let second = Int(event.timestamp.timeIntervalSince1970.rounded(.down))
        let service = event.metadata["service.name"]
        // The common case, an issue already known, takes the lock once and updates the record in place.
        let counted = state.withLock { s in
            s.issues[fingerprint]?.add(event, category: category, second: second, service: service) != nil
        }
        if counted { return }
        // A new issue: its names are built outside the lock.
        let classification = Classification(of: event.error)
        state.withLock { s in
            if s.issues[fingerprint] == nil {
                if s.issues.count >= capacity,
                    let oldest = s.issues.min(by: { $0.value.record.lastSeen < $1.value.record.lastSeen })
                {
                    s.issues[oldest.key] = nil
                    s.evicted.append(oldest.key)
                }
                s.issues[fingerprint] = Issue(
                    record: IssueRecord(
                        fingerprint: fingerprint, typeName: DashboardEvent.shortTypeName(classification.typeName),
                        qualifiedTypeName: classification.typeName, code: classification.code,
                        category: classification.category, severity: event.severity, count: 0,
                        firstSeen: event.timestamp, lastSeen: event.timestamp))
            }
            s.issues[fingerprint]?.add(event, category: category, second: second, service: service)
        }
    }

    /// The issues that changed since the last call, with their occurrences and last minute, and the fingerprints
    /// forgotten since.
    func sample(at now: Date) -> (changed: [IssueRecord], evicted: [String]) {
        let last = Int(now.timeIntervalSince1970.rounded(.down))
        let (taken, evicted) = state.withLock { s -> ([(IssueRecord, Deque<ErrorEvent>, [Int: Int])], [String]) in
            var taken: [(IssueRecord, Deque<ErrorEvent>, [Int: Int])] = []
            for key in s.issues.keys where s.issues[key]!.changed {
                s.issues[key]!.changed = false
                s.issues[key]!.seconds = s.issues[key]!.seconds.filter { $0.key > last - 60 }
                taken.append((s.issues[key]!.record, s.issues[key]!.pending, s.issues[key]!.seconds))
                s.issues[key]!.pending.removeAll()
            }
            defer { s.evicted.removeAll() }
            return (taken, s.evicted)
        }
        // Text is built outside the lock, for the few occurrences a sample shows.
        var changed: [IssueRecord] = []
        for (stored, pending, seconds) in taken {
            var record = stored
            let fresh = pending.reversed().map { event in
                IssueRecord.Occurrence(
                    sequence: event.sequence, timestamp: event.timestamp,
                    message: Self.summary(of: Classification(of: event.error).technicalMessage),
                    service: event.metadata["service.name"])
            }
            record.recent = Array((fresh + record.recent).prefix(IssueRecord.occurrenceLimit))
            record.perSecond = (last - 59...last).map { seconds[$0] ?? 0 }
            record.perSecondEnd = Date(timeIntervalSince1970: Double(last))
            state.withLock { s in
                // Keep the converted occurrences, unless the issue was forgotten or counted again meanwhile.
                if s.issues[record.fingerprint] != nil { s.issues[record.fingerprint]!.record.recent = record.recent }
            }
            changed.append(record)
        }
        return (changed, evicted)
    }
}

extension IssueTracker.Issue {
    fileprivate mutating func add(_ event: ErrorEvent, category: ErrorCategory, second: Int, service: String?) {
        record.count += 1
        if event.origin == .user { record.userCount += 1 }
        if let service, record.services.count < 8, !record.services.contains(service) {
            record.services.append(service)
        }
        if event.timestamp < record.firstSeen { record.firstSeen = event.timestamp }
        if event.timestamp >= record.lastSeen {
            record.lastSeen = event.timestamp
            record.category = category
            record.severity = event.severity
        }
        seconds[second, default: 0] += 1
        if seconds.count > 120 { seconds = seconds.filter { $0.key > second - 60 } }
        pending.append(event)
        if pending.count > IssueRecord.occurrenceLimit { pending.removeFirst() }
        changed = true
    }
}
