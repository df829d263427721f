import DequeModule

/// Folds repeated errors into one alert with a running count, so the user hears once that the server is down.
///
/// Errors are grouped by fingerprint (type and code by default; see ``Configuration/fingerprint``). The first
/// error of a group raises an alert; the ones after it are *coalesced* into that alert, whose count grows
/// (`Server unavailable ×10`). The group raises a fresh alert only when both
///
/// - the `window` since it last alerted has passed (at most one alert per window), and
/// - a `quietPeriod` has passed without any error of the group (the problem went away, then came back).
///
/// Follow-up errors of one root cause can be suppressed (see ``Configuration/isFollowUp``): while the
/// "offline" alert is active, the timeouts it causes are counted on it rather than alerted.
/// Errors of `.background` origin are never alerted: they are ignored here (count them elsewhere).
///
/// It is a plain state machine: ``receive(_:at:)`` takes the instant and returns a ``Decision``, so the
/// dashboard drives it synchronously from its event loop and tests drive it with a ``ManualClock``.
/// ``SharedAlertCoalescer`` wraps it in a lock for use from many tasks.
///
/// ```swift
/// var coalescer = AlertCoalescer(clock: clock, configuration: .standard)
/// coalescer.receive(report)        // .alert(…), shown
/// coalescer.receive(report)        // .coalesced(…), the badge now says ×2
/// coalescer.activeAlerts           // one alert, count 2
/// ```
public struct AlertCoalescer<C: Clock>: Sendable {
    /// How errors are grouped and how long groups last.
    public struct Configuration: Sendable {
        /// At most one alert per group within this long after it alerted.
        public var window: C.Duration
        /// A group alerts again only after this long without any of its errors.
        public var quietPeriod: C.Duration
        /// The grouping key of a report; by default ``ErrorReport/fingerprint`` (type name and code).
        public var fingerprint: @Sendable (ErrorReport) -> String
        /// Whether `report` is a follow-up of the active alert `rootCause` and should be suppressed.
        public var isFollowUp: @Sendable (_ report: ErrorReport, _ rootCause: Alert) -> Bool {
            didSet { rootCodes = nil }
        }
        /// The codes an alert must have to be a root cause, when only ``suppressing(_:whileActive:)`` made the
        /// rules: each report is then checked against the active alerts of those codes alone, not against every
        /// group. `nil` once a rule of any shape is set: every active alert is a candidate.
        @usableFromInline var rootCodes: Set<ErrorCode>? = []

        /// Creates a configuration; by default (`isFollowUp` omitted) nothing is a follow-up of anything.
        public init(
            window: C.Duration,
            quietPeriod: C.Duration,
            fingerprint: @escaping @Sendable (ErrorReport) -> String = { $0.fingerprint },
            isFollowUp: (@Sendable (_ report: ErrorReport, _ rootCause: Alert) -> Bool)? = nil
        ) {
            self.window = window
            self.quietPeriod = quietPeriod
            self.fingerprint = fingerprint
            self.isFollowUp = isFollowUp ?? { _, _ in false }
            rootCodes = isFollowUp == nil ? [] : nil
        }

        /// A copy that also suppresses errors with one of `codes` while an alert with code `rootCause` is active.
        ///
        /// ```swift
        /// configuration.suppressing(["N-1001", "N-503"], whileActive: "N-1009")   // offline causes timeouts
        /// ```
        public func suppressing(_ codes: Set<ErrorCode>, whileActive rootCause: ErrorCode) -> Configuration {
            var copy = self
            let previous = isFollowUp
            copy.isFollowUp = { report, alert in
                previous(report, alert) || (alert.code == rootCause && codes.contains(report.classification.code))
            }
            copy.rootCodes = rootCodes.map { $0.union([rootCause]) }
            return copy
        }
    }

    /// One group of errors and what the user has been shown about it.
    public struct Alert: Sendable, Hashable, Identifiable {
        /// The grouping key.
        public var fingerprint: String
        /// The code of the first error of the group.
        public var code: ErrorCode
        /// The category of the first error of the group.
        public var category: ErrorCategory
        /// The user message of the first error of the group.
        public var userMessage: String
        /// How many errors the group has had since it last alerted, the alerting one included.
        public var count: Int
        /// When the first error since the last alert arrived (the alerting one).
        public var firstSeen: C.Instant
        /// When the latest error of the group arrived.
        public var lastSeen: C.Instant
        /// Follow-up errors of other groups suppressed because of this one.
        public var suppressedFollowUps: Int

        /// The fingerprint.
        public var id: String { fingerprint }

        /// The message with the running count: `"Server unavailable ×10"`, or just the message for one error.
        public var title: String { count > 1 ? "\(userMessage) ×\(count)" : userMessage }
    }

    /// What to do about one received report.
    public enum Decision: Sendable, Hashable {
        /// Show a new alert.
        case alert(Alert)
        /// Update an alert already shown: its count grew.
        case coalesced(Alert)
        /// Show nothing: the report is a follow-up of the active alert with this fingerprint.
        case suppressed(rootCause: String)
        /// Show nothing: the report is of `.background` origin.
        case ignored
    }

    /// The clock that ``receive(_:)`` and ``activeAlerts`` read.
    public let clock: C
    /// Grouping and timing.
    public var configuration: Configuration {
        didSet {
            // New rules may name other root codes: the groups that can be roots are found again.
            rootKeys = Set(groups.filter { configuration.rootCodes?.contains($0.value.code) == true }.keys)
        }
    }
    @usableFromInline var groups: [String: Alert] = [:]
    /// The keys of the groups that can be root causes (their code is one of ``Configuration/rootCodes``), when the
    /// rules say which codes those are; a report is checked against these instead of every group.
    @usableFromInline var rootKeys: Set<String> = []
    /// Every group's key in the order the groups were made, with when it was last looked at here: the queue that
    /// ``forget(keepingMostRecent:)`` takes the least recently seen from (a group seen since it was queued gets a
    /// second chance at the back). Keys of groups gone since are skipped when they come up.
    private var order: Deque<(key: String, seen: C.Instant)> = []

    /// Creates a coalescer with no alerts.
    public init(clock: C, configuration: Configuration) {
        self.clock = clock
        self.configuration = configuration
    }

    /// Receives a report at the clock's current instant.
    @discardableResult
    public mutating func receive(_ report: ErrorReport) -> Decision {
        receive(report, at: clock.now)
    }

    /// Receives a report at `instant` and decides whether to alert.
    ///
    /// Inlinable, like what it reads, so that a client's coalescer is specialized for its clock: unspecialized, the
    /// generic dictionary and metadata lookups of this path had cost 6% of the adding thread under a socket storm.
    @inlinable @discardableResult
    public mutating func receive(_ report: ErrorReport, at instant: C.Instant) -> Decision {
        guard report.origin == .user else { return .ignored }
        let key = configuration.fingerprint(report)
        if let rootCodes = configuration.rootCodes {
            // Only groups of a root code can suppress: O(those groups), however many others there are.
            for rootKey in rootKeys where rootKey != key {
                guard let root = groups[rootKey], isActive(root, at: instant), rootCodes.contains(root.code),
                    configuration.isFollowUp(report, root)
                else { continue }
                groups[rootKey]?.suppressedFollowUps += 1
                return .suppressed(rootCause: rootKey)
            }
        } else {
            for (rootKey, root) in groups where rootKey != key && isActive(root, at: instant) {
                if configuration.isFollowUp(report, root) {
                    groups[rootKey]?.suppressedFollowUps += 1
                    return .suppressed(rootCause: rootKey)
                }
            }
        }
        if var alert = groups[key], isActive(alert, at: instant) {
            alert.count += 1
            alert.lastSeen = max(alert.lastSeen, instant)
            groups[key] = alert
            return .coalesced(alert)
        }
        return .alert(startGroup(key, with: report, at: instant))
    }

    /// Makes group `key` with `report` as its first error: the rare path of ``receive(_:at:)``, left out of line.
    @usableFromInline
    mutating func startGroup(_ key: String, with report: ErrorReport, at instant: C.Instant) -> Alert {
        let alert = Alert(
            fingerprint: key,
            code: report.classification.code,
            category: report.classification.category,
            userMessage: report.classification.userMessage,
            count: 1,
            firstSeen: instant,
            lastSeen: instant,
            suppressedFollowUps: 0)
        groups[key] = alert
        order.append((key, instant))
        if configuration.rootCodes?.contains(alert.code) == true { rootKeys.insert(key) }
        return alert
    }

    /// The alerts still active at `instant`, oldest first: those whose next error would be coalesced.
    public func activeAlerts(at instant: C.Instant) -> [Alert] {
        groups.values.filter { isActive($0, at: instant) }.sorted {
            ($0.firstSeen, $0.fingerprint) < ($1.firstSeen, $1.fingerprint)
        }
    }

    /// The alerts still active at the clock's current instant, oldest first.
    public var activeAlerts: [Alert] { activeAlerts(at: clock.now) }

    /// Forgets the groups that are no longer active at `instant`, to bound memory.
    public mutating func prune(at instant: C.Instant) {
        groups = groups.filter { isActive($0.value, at: instant) }
        rootKeys = rootKeys.filter { groups[$0] != nil }
        // The queue keeps one entry per group left, in its order.
        var queued = Set<String>()
        order = Deque(order.reversed().filter { groups[$0.key] != nil && queued.insert($0.key).inserted }.reversed())
    }

    /// How many groups are remembered (active or not yet pruned).
    public var groupCount: Int { groups.count }

    /// Forgets groups until `count` are left, the least recently seen first, to bound memory when more distinct
    /// errors alert at once than anyone could read (a flood of unique types): a forgotten group's next error alerts
    /// anew, counted from one. Groups are taken in the order they were made, and one seen since it was last looked
    /// at is kept and looked at again later (the "second chance" approximation of least recently used), so the
    /// cost is O(1) amortised per group made, with no sorting.
    public mutating func forget(keepingMostRecent count: Int) {
        while groups.count > max(0, count), let (key, seen) = order.popFirst() {
            guard let group = groups[key] else { continue }
            if group.lastSeen > seen {
                order.append((key, group.lastSeen))
            } else {
                groups[key] = nil
                rootKeys.remove(key)
            }
        }
    }

    /// Forgets one group, for example when the user dismisses its alert; its next error alerts anew.
    public mutating func dismiss(_ fingerprint: String) {
        groups[fingerprint] = nil
        rootKeys.remove(fingerprint)
    }

    /// Whether a group's next error at `instant` would be coalesced rather than alerted.
    @inlinable
    func isActive(_ alert: Alert, at instant: C.Instant) -> Bool {
        let windowOpen = instant < alert.firstSeen.advanced(by: configuration.window)
        let stillNoisy = instant < alert.lastSeen.advanced(by: configuration.quietPeriod)
        return windowOpen || stillNoisy
    }
}

extension AlertCoalescer.Configuration where C.Duration == Duration {
    /// At most one alert a minute per group, and again only after 30 quiet seconds.
    public static var standard: Self { Self(window: .seconds(60), quietPeriod: .seconds(30)) }
}
