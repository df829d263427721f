import Foundation

/// One edge of the service map: calls from one service to another, seen as a span of the caller whose child span
/// belongs to the callee (what the OpenTelemetry Collector's servicegraph connector counts). Rate and error share
/// are over the last minute; the percentiles are of the callee's span durations, over every call.
public struct ServiceEdge: Sendable, Hashable {
    /// The calling service (the parent span's), `unknown_service` when the span named none.
    public var caller: String
    /// The called service (the child span's).
    public var callee: String
    /// Calls counted so far.
    public var calls: Int
    /// Calls that failed so far: the callee's span failed, or the caller's client span did.
    public var failed: Int
    /// Calls per second over the last minute (or since the first call, when sooner).
    public var ratePerSecond: Double
    /// The share of the last minute's calls that failed (0…1).
    public var errorRatio: Double
    /// The callee's span durations in ms: median, 95th and 99th percentiles; `nil` when no span had both times.
    public var p50: Double?
    public var p95: Double?
    public var p99: Double?
    /// When a call was last counted.
    public var updatedAt: Date

    /// The edge's identity: caller and callee.
    public var id: String { caller + "\u{1F}" + callee }

    /// What a query looks at: `service:` and words match either end.
    public var querySubject: QuerySubject {
        QuerySubject(service: caller + " " + callee, texts: [caller, callee])
    }

    /// An edge.
    public init(
        caller: String, callee: String, calls: Int, failed: Int, ratePerSecond: Double, errorRatio: Double,
        p50: Double? = nil, p95: Double? = nil, p99: Double? = nil, updatedAt: Date
    ) {
        self.caller = caller
        self.callee = callee
        self.calls = calls
        self.failed = failed
        self.ratePerSecond = ratePerSecond
        self.errorRatio = errorRatio
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.updatedAt = updatedAt
    }
}
