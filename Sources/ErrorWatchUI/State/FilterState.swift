import Foundation

/// The filter slice of ``DashboardState``: the error types shown, the query Logs, Alerts, Issues and Patterns must match,
/// and the query being typed after `/`. Changed only by ``reduce(_:)``, with the actions of ``Action``.
///
/// ```swift
/// state.filter.matches(event)   // passes the type filter and the query
/// ```
public struct FilterState: Sendable, Equatable {
    /// Error types shown (matched against `typeName`); empty means all.
    public private(set) var types: Set<String> = []
    /// The query Logs, Alerts and Issues must match (`/`); the empty query matches everything.
    public private(set) var query: Query = .empty
    /// Whether a query is being typed (after `/`).
    public private(set) var isEditing = false
    /// The query being typed; it replaces ``query`` on `Enter` if it parses.
    public private(set) var draft = ""
    /// Why the typed query did not parse, with the position, shown in the prompt; the previous query stays.
    public private(set) var error: QueryError?

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

    /// Whether a trace of the Traces view passes the query (the type filter does not apply: spans have no error
    /// type).
    public func matches(_ trace: TraceSummary) -> Bool {
        query.isEmpty || query.matches(trace.querySubject)
    }

    /// Whether `other` lets the same lines through (the typed draft aside).
    func selectsSameLines(as other: FilterState) -> Bool { types == other.types && query == other.query }

    /// What changes the filters: the keys of the `/` prompt and of the type filter.
    enum Action: Sendable {
        /// `/`: the prompt opens on the query in force.
        case editingBegan
        /// A character typed in the prompt (made safe to draw; the draft holds at most 200).
        case typed(Character)
        /// Backspace in the prompt.
        case erased
        /// `Enter` in the prompt, with the draft as parsed: a query replaces the one in force; an error is shown
        /// where it is, and the query in force stays.
        case submitted(Result<Query, QueryError>)
        /// `Esc` in the prompt: it closes, leaving the query as it was.
        case editingCancelled
        /// `Esc` outside the prompt: no query.
        case queryCleared
        /// A digit key: error type `name` shown or hidden.
        case typeToggled(String)
        /// `0`: every error type shown.
        case typesCleared
    }

    /// Applies `action`; returns whether anything changed (a character past the draft's room, or Backspace on an
    /// empty draft, changes nothing).
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .editingBegan:
            isEditing = true
            draft = query.text
            error = nil
        case .typed(let character):
            guard draft.count < 200 else { return false }
            draft += Sanitizer.sanitize(String(character))
            error = nil
        case .erased:
            guard !draft.isEmpty else { return false }
            draft.removeLast()
            error = nil
        case .submitted(.success(let parsed)):
            query = parsed
            isEditing = false
            error = nil
        case .submitted(.failure(let failure)):
            error = failure
        case .editingCancelled:
            isEditing = false
            error = nil
            draft = query.text
        case .queryCleared:
            query = .empty
        case .typeToggled(let name):
            if types.contains(name) { types.remove(name) } else { types.insert(name) }
        case .typesCleared:
            types = []
        }
        return true
    }
}
