/// Why a query's text could not be parsed, and where.
///
/// ```swift
/// if case .failure(let error) = Query.parse("level:warning foo:bar") {
///     print(error)   // at 14: unknown field "foo" (fields: level, type, code, service, source, origin, category)
/// }
/// ```
public struct QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 0-based offset, in characters (`Character`s, not bytes), of the text's first problem: where a caret
    /// under the query should point.
    public var position: Int
    /// What is wrong, in one line, for example `unclosed quote`.
    public var message: String

    /// An error at `position` saying `message`.
    public init(position: Int, message: String) {
        self.position = position
        self.message = message
    }

    /// `at 7: unknown field "foo" (fields: …)`.
    public var description: String { "at \(position): \(message)" }
}
