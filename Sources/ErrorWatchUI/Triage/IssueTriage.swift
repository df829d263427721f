import Foundation

/// An issue's triage: its status and what ends it. A pure value with pure transitions, used alike by the
/// dashboard (keys, counting), the store and `errorwatch issues`, so every path decides the same way.
///
/// ```swift
/// var triage = IssueTriage()
/// triage.apply(.resolve, count: 10, newestVersion: nil, at: now)
/// triage.occurred(version: nil, versionFirstSeen: nil, count: 11, at: later)   // true: now .regressed
/// ```
public struct IssueTriage: Sendable, Hashable {
    /// Where it stands.
    public var status: IssueStatus
    /// Resolved in the next release: occurrences in versions up to ``resolvedThrough`` are expected.
    public var inNextRelease: Bool
    /// The newest version seen when it was resolved in the next release (`nil`: none was known).
    public var resolvedThrough: String?
    /// When the status last changed, `nil` if it never did.
    public var changedAt: Date?
    /// An ignore for a time ends then.
    public var ignoredUntil: Date?
    /// An ignore until more occurrences ends when the count reaches this.
    public var ignoredUntilCount: Int?
    /// Whether someone opened it (a new issue stays marked until then).
    public var opened: Bool

    /// An unresolved issue nobody has opened.
    public init(
        status: IssueStatus = .unresolved, inNextRelease: Bool = false, resolvedThrough: String? = nil,
        changedAt: Date? = nil, ignoredUntil: Date? = nil, ignoredUntilCount: Int? = nil, opened: Bool = false
    ) {
        self.status = status
        self.inNextRelease = inNextRelease
        self.resolvedThrough = resolvedThrough
        self.changedAt = changedAt
        self.ignoredUntil = ignoredUntil
        self.ignoredUntilCount = ignoredUntilCount
        self.opened = opened
    }

    /// How far before its resolution an occurrence may have happened and still regress the issue: a producer's
    /// clock a little behind the dashboard's, a line buffered for a while. Older ones (a log of last week opened now)
    /// happened before the fix and leave it resolved.
    public static let resolutionTolerance: TimeInterval = 300

    /// How long an issue counts as new after it was first seen.
    public static let newFor: TimeInterval = 24 * 3_600

    /// Whether an issue first seen at `firstSeen` is new at `now`: first seen within ``newFor`` and unresolved (a
    /// regressed issue is not new: it was resolved once).
    public func isNew(firstSeen: Date, at now: Date) -> Bool {
        status == .unresolved && now.timeIntervalSince(firstSeen) < Self.newFor
    }

    /// Where the issue stands in one word, as the dashboard and `errorwatch issues` both say it: `regressed`,
    /// `resolved`, `ignored`, `new` (unresolved and first seen within ``newFor``) or `unresolved`.
    public func word(firstSeen: Date, at now: Date) -> String {
        isNew(firstSeen: firstSeen, at: now) ? "new" : status.rawValue
    }

    /// Where the issue stands, in full, as the detail view and `errorwatch issues show` both say it: the status,
    /// `new` when it is, and what ends it (`resolved in the release after 1.4.0`, `ignored for 50m more`,
    /// `ignored until 200 occurrences`).
    public func description(firstSeen: Date, at now: Date) -> String {
        var text = status.rawValue
        if isNew(firstSeen: firstSeen, at: now) { text += ", new" }
        if inNextRelease { text += resolvedThrough.map { " in the release after \($0)" } ?? " in the next release" }
        if let until = ignoredUntil {
            let left = until.timeIntervalSince(now)
            text += left > 0 ? " for \(Format.age(left)) more" : " until \(Format.timestamp(until))"
        }
        if let until = ignoredUntilCount { text += " until \(until) occurrences" }
        return text
    }

    /// Applies a decision. `count` is the issue's count now, `newestVersion` the newest version it was seen in.
    public mutating func apply(_ action: IssueTriageAction, count: Int, newestVersion: String?, at now: Date) {
        if action == .markOpened {
            opened = true
            return
        }
        let previous = status
        (inNextRelease, resolvedThrough, ignoredUntil, ignoredUntilCount) = (false, nil, nil, nil)
        switch action {
        case .resolve:
            status = .resolved
        case .resolveInNextRelease:
            status = .resolved
            inNextRelease = true
            resolvedThrough = newestVersion
        case .ignore(let condition):
            status = .ignored
            switch condition {
            case .forever: break
            case .duration(let seconds): ignoredUntil = now.addingTimeInterval(seconds)
            case .occurrences(let more): ignoredUntilCount = count + max(1, more)
            }
        case .reopen, .markOpened:
            status = .unresolved
        }
        if status != previous || action != .reopen { changedAt = now }
    }

    /// An occurrence was counted (`count` includes it) that happened at `now` (its own time), in `version` first
    /// seen by the issue at `versionFirstSeen`. Returns whether the status changed: a resolved issue regresses
    /// (unless the occurrence happened well before it was resolved, more than ``resolutionTolerance``, as a line of
    /// an old file read now did; or it was resolved in the next release and the version is not newer than the one it
    /// was resolved through, or unknown); an ignore until a count ends when the count is reached.
    public mutating func occurred(version: String?, versionFirstSeen: Date?, count: Int, at now: Date) -> Bool {
        switch status {
        case .resolved:
            if let resolvedAt = changedAt, now < resolvedAt.addingTimeInterval(-Self.resolutionTolerance) {
                return false
            }
            if inNextRelease {
                // Without a version nothing says the occurrence is from a newer release: it stays resolved.
                guard let version else { return false }
                if let through = resolvedThrough {
                    let resolvedAt = changedAt ?? .distantPast
                    guard
                        IssueVersion.isNewer(
                            version, firstSeen: versionFirstSeen ?? now, than: through, resolvedAt: resolvedAt)
                    else { return false }
                }
            }
            status = .regressed
            changedAt = now
            return true
        case .ignored:
            if let until = ignoredUntilCount, count >= until { return reopenAfterIgnore(at: now) }
            if let until = ignoredUntil, now >= until { return reopenAfterIgnore(at: now) }
            return false
        case .unresolved, .regressed:
            return false
        }
    }

    /// Time passed: an ignore for a time ends at its date. Returns whether the status changed.
    public mutating func expire(at now: Date) -> Bool {
        guard status == .ignored, let until = ignoredUntil, now >= until else { return false }
        return reopenAfterIgnore(at: now)
    }

    private mutating func reopenAfterIgnore(at now: Date) -> Bool {
        status = .unresolved
        (ignoredUntil, ignoredUntilCount) = (nil, nil)
        changedAt = now
        return true
    }
}
