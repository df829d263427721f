import ErrorStreaming

/// What a ``Query`` looks at: the searchable fields of a log line, an alert or an issue, as plain values.
///
/// The caller builds one per row; every field has a default, so only what the row has needs to be given.
///
/// ```swift
/// let subject = QuerySubject(
///     level: .error, type: "PaymentError", code: "N-503", source: "checkout", texts: ["Card declined"])
/// Query.parse("level:warning+ payment").map { $0.matches(subject) }   // .success(true)
/// ```
public struct QuerySubject: Sendable, Hashable {
    /// The severity or log level; `level:` terms never match a subject without one.
    public var level: ErrorSeverity?
    /// The short type name, for example `PaymentError`.
    public var type: String
    /// The module-qualified type name, for example `Checkout.PaymentError`, when known.
    public var qualifiedType: String?
    /// The stable error code, for example `N-503`.
    public var code: String?
    /// The service (app or process) that reported it.
    public var service: String?
    /// The component that produced it, for example `auth.login`.
    public var source: String
    /// Whether the user caused it or it happened in the background.
    public var origin: ErrorOrigin?
    /// What kind of failure it is.
    public var category: ErrorCategory?
    /// The messages: technical, user-facing, title. Words, phrases and regexes search every one.
    public var texts: [String]
    /// An issue's triage status; `nil` for what is not an issue, which `is:` terms leave alone.
    public var issueStatus: IssueStatus?
    /// Whether the issue is new (first seen within a day, still open).
    public var isNew = false
    /// The `service.version`s it was seen in.
    public var versions: [String] = []
    /// Whether one of ``versions`` is the newest the dashboard knows (`version:latest`).
    public var hasLatestVersion = false
    /// The `deployment.environment.name`s it was seen in.
    public var environments: [String] = []
    /// The trace it belongs to (or is), as lower-case hex, for `trace:`.
    public var traceID: String?
    /// Whether it is a trace of the Traces view: only traces answer `status:` and `duration` terms.
    public var isTrace = false
    /// A trace's: whether a span of it failed.
    public var traceFailed: Bool?
    /// A trace's duration, when known.
    public var durationNanos: UInt64?

    /// A subject; fields left out are empty or `nil`, and terms on a missing field do not match.
    public init(
        level: ErrorSeverity? = nil, type: String = "", qualifiedType: String? = nil, code: String? = nil,
        service: String? = nil, source: String = "", origin: ErrorOrigin? = nil, category: ErrorCategory? = nil,
        texts: [String] = []
    ) {
        self.level = level
        self.type = type
        self.qualifiedType = qualifiedType
        self.code = code
        self.service = service
        self.source = source
        self.origin = origin
        self.category = category
        self.texts = texts
    }
}
