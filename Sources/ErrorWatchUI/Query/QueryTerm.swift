import ErrorStreaming

/// One term of a query, parsed: what it looks for and in which field.
enum QueryTerm: Sendable {
    /// A bare word or a quoted phrase: in the type, code, source, service or any text.
    case text(QueryNeedle)
    /// A `/regex/`: in the same fields as ``text(_:)``.
    case regex(QueryRegex)
    /// `level:warning` (exactly) or `level:warning+` (that level and above).
    case level(ErrorSeverity, orAbove: Bool)
    /// `type:`: in the short or qualified type name.
    case type(QueryNeedle)
    /// `code:`: the code equals or starts with it.
    case code(QueryNeedle)
    /// `service:`: in the service name.
    case service(QueryNeedle)
    /// `source:`: in the source.
    case source(QueryNeedle)
    /// `origin:user` or `origin:background`.
    case origin(ErrorOrigin)
    /// `category:transient` and the like.
    case category(ErrorCategory)
    /// `is:new`, `is:regressed`, `is:resolved`, `is:ignored`, `is:unresolved`: an issue's triage. Only issues have
    /// one; log lines and alerts pass these terms, included or excluded (see ``applies(to:)``).
    case status(IssueQueryStatus)
    /// `version:`: in any `service.version` it was seen in.
    case version(QueryNeedle)
    /// `version:latest`: seen in the newest version the dashboard knows.
    case latestVersion
    /// `env:`: in any `deployment.environment.name` it was seen in.
    case environment(QueryNeedle)
    /// `trace:`: the trace id starts with it (lower-case hex).
    case trace(String)
    /// `status:error` (a span failed) or `status:ok` (none did): about traces only; other subjects pass it.
    case traceStatus(failed: Bool)
    /// `duration>200ms`, `duration<1s` (also `>=`, `<=`): about traces only, whose duration must be known.
    case duration(QueryComparison, nanos: UInt64)

    /// Whether the term says anything about `subject`: triage terms only about issues.
    func applies(to subject: QuerySubject) -> Bool {
        switch self {
        case .status: return subject.issueStatus != nil
        case .traceStatus, .duration: return subject.isTrace
        default: return true
        }
    }

    /// Whether the term holds for `subject`.
    func matches(_ subject: QuerySubject) -> Bool {
        switch self {
        case .level(let level, let orAbove):
            guard let actual = subject.level else { return false }
            return orAbove ? actual >= level : actual == level
        case .origin(let origin): return subject.origin == origin
        case .category(let category): return subject.category == category
        case .status(let wanted):
            guard let status = subject.issueStatus else { return false }
            switch wanted {
            case .new: return subject.isNew
            case .unresolved: return status.isOpen
            case .regressed: return status == .regressed
            case .resolved: return status == .resolved
            case .ignored: return status == .ignored
            }
        case .version(let needle): return subject.versions.contains(where: needle.isFound(in:))
        case .latestVersion: return subject.hasLatestVersion
        case .environment(let needle): return subject.environments.contains(where: needle.isFound(in:))
        case .trace(let prefix): return subject.traceID?.hasPrefix(prefix) ?? false
        case .traceStatus(let failed): return subject.traceFailed == failed
        case .duration(let comparison, let nanos):
            guard let duration = subject.durationNanos else { return false }
            return comparison.holds(duration, nanos)
        case .code(let needle): return subject.code.map(needle.isPrefix(of:)) ?? false
        case .type(let needle):
            return needle.isFound(in: subject.type) || (subject.qualifiedType.map(needle.isFound(in:)) ?? false)
        case .service(let needle): return subject.service.map(needle.isFound(in:)) ?? false
        case .source(let needle): return needle.isFound(in: subject.source)
        case .text(let needle): return Self.anyField(of: subject, satisfies: needle.isFound(in:))
        case .regex(let regex): return Self.anyField(of: subject, satisfies: regex.isFound(in:))
        }
    }

    /// Relative cost of ``matches(_:)``, so a query checks enum fields, then short fields, then texts and regexes:
    /// a cheap term that fails spares the expensive ones.
    var cost: Int {
        switch self {
        case .level, .origin, .category, .status, .latestVersion, .traceStatus, .duration: 0
        case .code, .trace: 1
        case .type, .service, .source, .version, .environment: 2
        case .text: 3
        case .regex: 4
        }
    }

    /// The ranges of `text` a word, phrase or regex term would highlight; none for field terms.
    func highlights(in text: String) -> [Range<String.Index>] {
        switch self {
        case .text(let needle): needle.ranges(in: text)
        case .regex(let regex): regex.ranges(in: text)
        case .level, .origin, .category, .code, .type, .service, .source, .status, .version, .latestVersion,
            .environment, .trace, .traceStatus, .duration:
            []
        }
    }

    /// Whether `predicate` holds for the type (short or qualified), code, source, service or any text, in that
    /// order: the short fields first.
    private static func anyField(of subject: QuerySubject, satisfies predicate: (String) -> Bool) -> Bool {
        if predicate(subject.type) || predicate(subject.source) { return true }
        if let code = subject.code, predicate(code) { return true }
        if let qualified = subject.qualifiedType, predicate(qualified) { return true }
        if let service = subject.service, predicate(service) { return true }
        for text in subject.texts where predicate(text) { return true }
        return false
    }
}

/// A term and whether it is excluded (`-term`): a subject passes a clause when the term's match differs from
/// `isExcluded`.
struct QueryClause: Sendable {
    /// What the clause looks for.
    var term: QueryTerm
    /// Whether the term was written `-term`, so that subjects it matches are left out.
    var isExcluded: Bool
}
