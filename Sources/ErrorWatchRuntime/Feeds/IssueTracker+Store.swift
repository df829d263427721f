import DequeModule
import ErrorStreaming
import ErrorWatchStore
import ErrorWatchUI
import Foundation

extension IssueTracker {
    /// From now on, keeps what is counted for the store.
    func startStoring() { state.withLock { $0.storing = true } }

    /// Notes that a file's lines up to `mark` are counted: written with the next drain, in the same transaction as
    /// their counts (an error is counted as it is ingested, before its file's mark is noted).
    func noteRead(_ mark: FileMark) {
        state.withLock { s in
            guard s.storing else { return }
            s.marks[mark.identity] = mark
        }
    }

    /// Takes what every issue gained since the last call, and the files' marks, for one store write.
    func drainForStore() -> (drafts: [Draft], marks: [FileMark]) {
        state.withLock { s in
            let marks = Array(s.marks.values)
            s.marks.removeAll()
            var drafts = s.evictedDrafts
            s.evictedDrafts.removeAll()
            for fingerprint in s.unstored {
                guard let issue = s.issues[fingerprint] else { continue }
                drafts.append(Draft(record: issue.record, unstored: issue.unstored, triage: issue.unstoredTriage))
                s.issues[fingerprint]!.unstored = Unstored()
                s.issues[fingerprint]!.unstoredTriage = nil
            }
            s.unstored.removeAll(keepingCapacity: true)
            return (drafts, marks)
        }
    }

    /// Takes what the store has (read after a write, or at start): counts become the store's plus what was counted
    /// since the last drain, triage the store's unless a decision here is not yet written, versions and
    /// environments merge. Issues the tracker does not know (another process's) join while there is room.
    func reconcile(_ stored: [StoredIssue]) {
        state.withLock { s in
            for item in stored {
                let fingerprint = item.record.fingerprint
                guard var issue = s.issues[fingerprint] else {
                    guard s.issues.count < capacity else { continue }
                    s.issues[fingerprint] = Issue(record: item.record)
                    s.touch(fingerprint)
                    continue
                }
                let before = issue.record
                issue.record.count = item.record.count + issue.unstored.count
                issue.record.userCount = item.record.userCount + issue.unstored.userCount
                issue.record.firstSeen = min(issue.record.firstSeen, item.record.firstSeen)
                if item.record.lastSeen > issue.record.lastSeen { issue.record.lastSeen = item.record.lastSeen }
                if issue.unstoredTriage == nil { issue.record.triage = item.record.triage }
                issue.record.storeID = item.id
                var versions = item.record.versions
                for (version, seen) in issue.unstored.versions {
                    if let index = versions.firstIndex(where: { $0.version == version }) {
                        versions[index].count += seen.count
                    } else if versions.count < IssueRecord.versionLimit {
                        versions.append(IssueVersion(version: version, firstSeen: seen.firstSeen, count: seen.count))
                    }
                }
                issue.record.versions = versions
                for name in item.record.services
                where !issue.record.services.contains(name) && issue.record.services.count < 8 {
                    issue.record.services.append(name)
                }
                for name in item.record.environments where !issue.record.environments.contains(name) {
                    issue.record.environments.append(name)
                }
                if issue.record != before { issue.changed = true }
                s.issues[fingerprint] = issue
            }
        }
    }

    /// Applies a triage decision made here (a key), at `now`, by `actor`; returns the issue afterwards, `nil` if it
    /// is not known.
    @discardableResult
    func applyTriage(_ fingerprint: String, _ action: IssueTriageAction, at now: Date, actor: String) -> IssueRecord? {
        state.withLock { s in
            guard var issue = s.issues[fingerprint] else { return nil }
            issue.record.triage.apply(
                action, count: issue.record.count,
                newestVersion: IssueVersion.newest(in: issue.record.versions)?.version, at: now)
            issue.changed = true
            if s.storing {
                // Marking opened is folded into whatever else is written; a decision is written with its words.
                if action != .markOpened || issue.unstoredTriage == nil {
                    issue.unstoredTriage = (action.summary, actor)
                }
                s.unstored.insert(fingerprint)
            }
            s.issues[fingerprint] = issue
            return issue.record
        }
    }

    /// The regressions since the last call: the issue and the version it came back in.
    func takeRegressions() -> [(IssueRecord, String?)] {
        state.withLock { s in
            defer { s.regressions.removeAll() }
            return s.regressions
        }
    }
}

extension IssueTracker {
    /// What counting one error changed beyond the count: a regression (with its version), and whether the store
    /// has something new.
    struct CountOutcome {
        var regressedIn: String??
        var unstored: Bool
    }
}

extension IssueTracker.Issue {
    /// After `event` was counted: versions and environments, triage (regressions, ignores that end with a count),
    /// and what the store has not seen.
    mutating func afterCount(_ event: ErrorEvent, facts: ErrorFacts, storing: Bool) -> IssueTracker.CountOutcome {
        let version = facts.version
        var versionFirstSeen: Date?
        if let version {
            if let index = record.versions.firstIndex(where: { $0.version == version }) {
                record.versions[index].count += 1
                versionFirstSeen = record.versions[index].firstSeen
            } else if record.versions.count < IssueRecord.versionLimit {
                record.versions.append(IssueVersion(version: version, firstSeen: facts.time, count: 1))
            }
        }
        if let environment = facts.environment, record.environments.count < 16,
            !record.environments.contains(environment)
        {
            record.environments.append(environment)
        }
        var outcome = IssueTracker.CountOutcome(regressedIn: nil, unstored: storing)
        let status = record.triage.status
        if status == .resolved || status == .ignored,
            record.triage.occurred(
                version: version, versionFirstSeen: versionFirstSeen, count: record.count, at: facts.time)
        {
            let regressed = record.triage.status == .regressed
            if regressed { outcome.regressedIn = .some(version) }
            if storing {
                let words = regressed ? "regressed" + (version.map { " in \($0)" } ?? "") : "ignore ended"
                unstoredTriage = (words, "dashboard \(getpid())")
            }
        }
        if storing {
            // Hours and versions by the error's own time (the producer's), as the occurrences and first/last seen.
            let hour = Int((facts.time.timeIntervalSince1970 / 3_600).rounded(.down))
            unstored.note(event, at: facts.time, hour: hour, version: version, environment: facts.environment)
        }
        return outcome
    }
}

extension IssueTracker.State {
    /// Books what counting an error of `fingerprint` changed beyond the issue itself.
    mutating func afterCount(_ fingerprint: String, _ outcome: IssueTracker.CountOutcome) {
        if outcome.unstored { unstored.insert(fingerprint) }
        if case .some(let version) = outcome.regressedIn, let issue = issues[fingerprint] {
            regressions.append((issue.record, version))
        }
    }

    /// Ends ignores whose time is up.
    mutating func expireIgnores(at now: Date) {
        for key in issues.keys where issues[key]!.record.triage.status == .ignored {
            guard issues[key]!.record.triage.expire(at: now) else { continue }
            issues[key]!.changed = true
            if storing {
                issues[key]!.unstoredTriage = ("ignore ended", "dashboard \(getpid())")
                unstored.insert(key)
            }
        }
    }
}

extension IssueTracker.Unstored {
    mutating func note(_ event: ErrorEvent, at time: Date, hour: Int, version: String?, environment: String?) {
        count += 1
        if event.origin == .user { userCount += 1 }
        hours[hour, default: 0] += 1
        if let version {
            if let seen = versions[version] {
                versions[version] = (min(seen.firstSeen, time), seen.count + 1)
            } else {
                versions[version] = (time, 1)
            }
        }
        if let environment, !environments.contains(environment) { environments.append(environment) }
        if first == nil {
            first = event
        } else {
            latest.append(event)
            if latest.count > Self.latestLimit { latest.removeFirst() }
        }
    }
}
