import DequeModule
import ErrorStreaming
import ErrorWatchWire
import ErrorWatchUI
import Foundation
import Synchronization

/// Groups every error of the stream by fingerprint, background ones included, for the Issues view: exact counts
/// (fed synchronously as errors are added, so nothing is dropped or left behind), services, first and last seen, a
/// per-second history of the last minute and the most recent occurrences.
///
/// Counting stays cheap: an occurrence keeps its raw event and is turned into text only when a sample that
/// includes it is taken. At most ``capacity`` issues are kept; beyond that the least recently counted is forgotten
/// (and reported as evicted, so the view forgets it too), found in amortised O(1) through a queue of touches, so
/// a flood of new fingerprints costs the same per error as a flood of one.
///
/// With a store (``storing``), it also keeps what each issue gained since the last write (``Unstored``), which the
/// ``StoreWriter`` drains every 100 ms, and decides triage as errors arrive (a resolved issue seen again regresses,
/// an ignore until a count ends), so regressions are exact too.
final class IssueTracker: Sendable {
    struct Issue {
        var record: IssueRecord
        /// Occurrences not yet turned into text, newest last.
        var pending: Deque<ErrorEvent> = []
        /// Occurrences per whole second since 1970.
        var seconds: [Int: Int] = [:]
        var changed = true
        /// When it was last counted, in the tracker's touch order.
        var touch: UInt64 = 0
        /// What was counted since the store's last write.
        var unstored = Unstored()
        /// A triage decision not yet written: what it was, and who made it.
        var unstoredTriage: (action: String, actor: String)?
    }

    /// What an issue gained since the store's last write: counts exact, occurrences sampled (the first the store
    /// will see of the issue, and the latest few).
    struct Unstored {
        var count = 0
        var userCount = 0
        var hours: [Int: Int] = [:]
        var versions: [String: (firstSeen: Date, count: Int)] = [:]
        var environments: [String] = []
        var first: ErrorEvent?
        var latest: Deque<ErrorEvent> = []
        /// How many of the latest occurrences a write keeps per issue.
        static let latestLimit = 3
    }

    /// An issue's share of a store write: its record now and what it gained.
    struct Draft {
        var record: IssueRecord
        var unstored: Unstored
        var triage: (action: String, actor: String)?
    }

    struct State {
        var issues: [String: Issue] = [:]
        var evicted: [String] = []
        /// Whether a store takes what is counted (else nothing is kept for it).
        var storing = false
        /// Issues with something not yet written.
        var unstored: Set<String> = []
        /// Drafts of issues forgotten before they were written.
        var evictedDrafts: [Draft] = []
        /// Regressions since the last sample, for alerts: the issue and the version it came back in.
        var regressions: [(IssueRecord, String?)] = []
        /// How far each file read is counted, the latest per file, not yet written.
        var marks: [FileIdentity: FileMark] = [:]
        /// Every touch in order, each with its stamp; an entry whose stamp is not its issue's latest is stale.
        var touches: Deque<(fingerprint: String, stamp: UInt64)> = []
        var nextTouch: UInt64 = 0

        /// Records that `fingerprint` was counted now.
        mutating func touch(_ fingerprint: String) {
            // Already the most recently counted (a run of one issue's errors, as a log read from its start is): the
            // order is unchanged. Its entry is the queue's last, so it was not evicted since (eviction pops the
            // first), and no other issue was touched after it.
            if let last = touches.last, last.stamp == nextTouch, last.fingerprint == fingerprint { return }
            nextTouch += 1
            issues[fingerprint]?.touch = nextTouch
            touches.append((fingerprint, nextTouch))
            // Stale entries are dropped when they outnumber the issues, so the queue stays within a small multiple.
            if touches.count > 4 * max(issues.count, 64) {
                touches = Deque(touches.filter { issues[$0.fingerprint]?.touch == $0.stamp })
            }
        }

        /// Forgets the least recently counted issue.
        /// Counts one error into its issue, making the issue (evicting the least recently counted at `capacity`)
        /// when it is new.
        mutating func count(_ event: ErrorEvent, facts: ErrorFacts, capacity: Int) {
            let (fingerprint, category) = (facts.fingerprint, facts.classified ? facts.category : nil)
            if facts.countedBefore {
                guard issues[fingerprint] != nil else { return }
                issues[fingerprint]!.pending.append(event)
                if issues[fingerprint]!.pending.count > IssueRecord.occurrenceLimit {
                    issues[fingerprint]!.pending.removeFirst()
                }
                issues[fingerprint]!.changed = true
                return
            }
            let time = facts.time
            let second = Int(time.timeIntervalSince1970.rounded(.down))
            if issues[fingerprint] == nil {
                // A new issue: only it needs the whole classification, for its names.
                let classification = Classification(of: event.error)
                if issues.count >= capacity { evictLeastRecent() }
                issues[fingerprint] = Issue(
                    record: IssueRecord(
                        fingerprint: fingerprint, typeName: DashboardEvent.shortTypeName(classification.typeName),
                        qualifiedTypeName: classification.typeName, code: classification.code, category: category,
                        severity: event.severity, count: 0, firstSeen: time, lastSeen: time,
                        codeText: facts.codeText))
            }
            // The common case, an issue already known, updates the record in place.
            let storing = self.storing
            if let outcome = issues[fingerprint]?.add(
                event, time: time, category: category, second: second, service: facts.service, facts: facts,
                storing: storing)
            {
                touch(fingerprint)
                afterCount(fingerprint, outcome)
            }
        }

        mutating func evictLeastRecent() {
            while let first = touches.popFirst() {
                guard issues[first.fingerprint]?.touch == first.stamp else { continue }
                issues[first.fingerprint] = nil
                evicted.append(first.fingerprint)
                return
            }
        }
    }

    let state = Mutex(State())
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

    /// Counts `event`, whose facts the caller already read; only a new issue needs the whole classification. An
    /// error an earlier reading of its file counted (``ErrorFacts/countedBefore``) is not counted again: its issue,
    /// loaded from the store with that count, lists it among its occurrences, and nothing else changes (no count, no
    /// regression, nothing for the store).
    func count(_ event: ErrorEvent, facts: ErrorFacts) {
        let capacity = self.capacity
        state.withLock { $0.count(event, facts: facts, capacity: capacity) }
    }

    /// Counts errors added together, in order, under one lock: as ``count(_:facts:)`` one by one.
    func count(contentsOf events: [ErrorEvent], facts: [ErrorFacts]) {
        let capacity = self.capacity
        state.withLock { s in
            for (event, facts) in zip(events, facts) { s.count(event, facts: facts, capacity: capacity) }
        }
    }

    /// The issues that changed since the last call, with their occurrences and last minute, and the fingerprints
    /// forgotten since.
    func sample(at now: Date) -> (changed: [IssueRecord], evicted: [String]) {
        let last = Int(now.timeIntervalSince1970.rounded(.down))
        let (taken, evicted) = state.withLock { s -> ([(IssueRecord, Deque<ErrorEvent>, [Int: Int])], [String]) in
            s.expireIgnores(at: now)
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
                let remote = event.context.remote
                let technical = remote?.technicalMessage ?? Classification(of: event.error).technicalMessage
                // A log-derived error's occurrence reads as its line did: its own sentence, then the exception's.
                let message = remote?.logMessage.map { $0 + " — " + technical } ?? technical
                return IssueRecord.Occurrence(
                    sequence: event.sequence, timestamp: remote?.provenance.time ?? event.timestamp,
                    message: Self.summary(of: message), service: remote?.provenance.service)
            }
            // Newest first by their own times, however they arrived (files merged, sources behind one another).
            record.recent = Array(
                (fresh + record.recent).sorted { ($0.timestamp, $0.sequence) > ($1.timestamp, $1.sequence) }
                    .prefix(IssueRecord.occurrenceLimit))
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
    /// Counts `event` at its own `time`; then, in the same access, its version, environment, triage and what the
    /// store has not seen (one dictionary lookup per error, whatever the store does).
    fileprivate mutating func add(
        _ event: ErrorEvent, time: Date, category: ErrorCategory?, second: Int, service: String?, facts: ErrorFacts,
        storing: Bool
    ) -> IssueTracker.CountOutcome {
        countOnly(event, time: time, category: category, second: second, service: service)
        if record.readFrom.count < 8, !record.readFrom.contains(facts.from) { record.readFrom.append(facts.from) }
        return afterCount(event, facts: facts, storing: storing)
    }

    private mutating func countOnly(
        _ event: ErrorEvent, time: Date, category: ErrorCategory?, second: Int, service: String?
    ) {
        record.count += 1
        if event.origin == .user { record.userCount += 1 }
        if let service, record.services.count < 8, !record.services.contains(service) {
            record.services.append(service)
        }
        if time < record.firstSeen { record.firstSeen = time }
        if time >= record.lastSeen {
            record.lastSeen = time
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
