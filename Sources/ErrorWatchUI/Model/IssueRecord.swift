import ErrorStreaming
import Foundation

/// Every error of one kind, background ones included, grouped by fingerprint for the Issues view. Counted
/// upstream (by the runtime's exact counter), so ``count`` is exact whatever the display buffers drop.
public struct IssueRecord: Sendable, Hashable {
    /// One occurrence, enough to list it and to find it again in Logs by ``sequence``.
    public struct Occurrence: Sendable, Hashable {
        /// The event's sequence number in the dashboard's stream.
        public var sequence: UInt64
        /// When it happened.
        public var timestamp: Date
        /// Its technical message.
        public var message: String
        /// Its service, if it came from another process.
        public var service: String?

        /// An occurrence.
        public init(sequence: UInt64, timestamp: Date, message: String, service: String? = nil) {
            self.sequence = sequence
            self.timestamp = timestamp
            self.message = message
            self.service = service
        }
    }

    /// The grouping key: type and code by default.
    public var fingerprint: String
    /// Short type name.
    public var typeName: String
    /// Fully qualified type name.
    public var qualifiedTypeName: String
    /// The stable code.
    public var code: ErrorCode
    /// The code as its producer wrote it (`L-042`, `40001`), shown instead of ``code``; empty when a producer gave
    /// none, `nil` for this process's own errors.
    public var codeText: String?
    /// The category of the latest occurrence; `nil` when nobody classified it (shown as `—`).
    public var category: ErrorCategory?
    /// The severity of the latest occurrence.
    public var severity: ErrorSeverity
    /// How many errors of this issue were added: exact.
    public var count: Int
    /// How many of them were user-origin (the rest are background).
    public var userCount: Int
    /// The services it was seen in, in order of first appearance (at most a few).
    public var services: [String]
    /// Where this dashboard read it, in order of first appearance (at most a few): `this process`, `file app.log`,
    /// `socket #3 on unix:/tmp/ew.sock`…; empty for an issue loaded from the store and not seen since.
    public var readFrom: [String] = []
    /// The first and latest occurrence.
    public var firstSeen: Date
    public var lastSeen: Date
    /// Occurrences in each of the 60 seconds up to and including ``perSecondEnd``'s second, oldest first.
    public var perSecond: [Int]
    /// The second the last bucket of ``perSecond`` counts; a view drawn later shifts the buckets by the difference.
    public var perSecondEnd: Date
    /// The most recent occurrences, newest first (at most ``occurrenceLimit``).
    public var recent: [Occurrence]
    /// How many occurrences ``recent`` keeps.
    public static let occurrenceLimit = 100
    /// The latest occurrence's words as the store last wrote them, for an issue loaded from the store whose
    /// occurrences are not in memory (``recent`` is empty until it occurs again); `nil` otherwise.
    public var storedSummary: String?
    /// What the issue's row says after its type: the latest occurrence's words, else the store's.
    public var latestWords: String? { recent.first?.message ?? storedSummary }
    /// Its triage (status, what ends an ignore, whether it was opened).
    public var triage = IssueTriage()
    /// The `service.version`s it was seen in, in order of first appearance (at most ``versionLimit``).
    public var versions: [IssueVersion] = []
    /// The `deployment.environment.name`s it was seen in, in order of first appearance (at most a few).
    public var environments: [String] = []
    /// Its number in the store (what `errorwatch issues show ID` takes), `nil` without a store or before its first
    /// write.
    public var storeID: Int64?
    /// How many versions ``versions`` keeps.
    public static let versionLimit = 32

    /// The code as shown: the producer's own text, else the stable code.
    public var shownCode: String { codeText ?? code.description }

    /// Occurrences in each of the 60 seconds up to and including `now`'s second, oldest first: ``perSecond``
    /// shifted by the seconds since it was counted.
    public func perSecond(endingAt now: Date) -> [Int] {
        let shift =
            Int(now.timeIntervalSince1970.rounded(.down)) - Int(perSecondEnd.timeIntervalSince1970.rounded(.down))
        guard shift > 0 else { return perSecond }
        guard shift < perSecond.count else { return Array(repeating: 0, count: perSecond.count) }
        return Array(perSecond.dropFirst(shift)) + Array(repeating: 0, count: shift)
    }

    /// An issue record.
    public init(
        fingerprint: String, typeName: String, qualifiedTypeName: String, code: ErrorCode, category: ErrorCategory?,
        severity: ErrorSeverity, count: Int, userCount: Int = 0, services: [String] = [], firstSeen: Date,
        lastSeen: Date, perSecond: [Int] = [], perSecondEnd: Date? = nil, recent: [Occurrence] = [],
        codeText: String? = nil
    ) {
        self.codeText = codeText
        self.perSecondEnd = perSecondEnd ?? lastSeen
        self.fingerprint = fingerprint
        self.typeName = typeName
        self.qualifiedTypeName = qualifiedTypeName
        self.code = code
        self.category = category
        self.severity = severity
        self.count = count
        self.userCount = userCount
        self.services = services
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.perSecond = perSecond
        self.recent = recent
    }
}

