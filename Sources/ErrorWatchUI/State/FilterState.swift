import Foundation

/// The filter slice of ``DashboardState``: the error types shown, the query Logs, Alerts, Issues and Patterns must match,
/// and the query being typed after `/`. Written only by the key handling.
///
/// ```swift
/// state.filter.matches(event)   // passes the type filter and the query
/// ```
public struct FilterState: Sendable, Equatable {
    /// Error types shown (matched against `typeName`); empty means all.
    public internal(set) var types: Set<String> = []
    /// The query Logs, Alerts and Issues must match (`/`); the empty query matches everything.
    public internal(set) var query: Query = .empty
    /// Whether a query is being typed (after `/`).
    public internal(set) var isEditing = false
    /// The query being typed; it replaces ``query`` on `Enter` if it parses.
    public internal(set) var draft = ""
    /// Why the typed query did not parse, with the position, shown in the prompt; the previous query stays.
    public internal(set) var error: QueryError?

    /// No filter: everything shows.
    public init() {}

    /// Whether any filter is active.
    public var isActive: Bool { !types.isEmpty || !query.isEmpty }

    /// Whether a Logs line passes the type filter and the query.
    public func matches(_ event: DashboardEvent) -> Bool {
        if !types.isEmpty, !types.contains(event.typeName) { return false }
        return query.isEmpty || query.matches(event.querySubject)
    }

    /// Whether an alert passes the type filter and the query.
    public func matches(_ alert: AlertRecord) -> Bool {
        if !types.isEmpty, !alert.typeName.isEmpty, !types.contains(alert.typeName) { return false }
        return query.isEmpty || query.matches(alert.querySubject)
    }

    /// Whether an issue passes the type filter and the query at `now` (which decides `is:new`), `latestVersion`
    /// being the newest version known (`version:latest`). Without an `is:` term, resolved and ignored issues are
    /// hidden.
    public func matches(_ issue: IssueRecord, at now: Date, latestVersion: String? = nil) -> Bool {
        if !types.isEmpty, !types.contains(issue.typeName) { return false }
        if !query.mentionsStatus, !issue.triage.status.isOpen { return false }
        return query.isEmpty || query.matches(issue.querySubject(at: now, latestVersion: latestVersion))
    }

    /// Whether a template of the Patterns view passes the query (the type filter does not apply: a template has
    /// lines of many types).
    public func matches(_ pattern: PatternRecord) -> Bool {
        query.isEmpty || query.matches(pattern.querySubject)
    }

    /// Whether `other` lets the same lines through (the typed draft aside).
    func selectsSameLines(as other: FilterState) -> Bool { types == other.types && query == other.query }

    /// Shows or hides error type `name`.
    mutating func toggleType(_ name: String) {
        if types.contains(name) { types.remove(name) } else { types.insert(name) }
    }
}
