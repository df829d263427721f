/// Maps a classified error and its origin to a reaction.
///
/// A policy is a rule plus per-code overrides. Whatever the rule says, an error of `.background` origin never
/// gets `.alert`: it is turned into `.ignore` (logged and counted, never shown).
///
/// ```swift
/// let policy = ReactionPolicy.standard
///     .overriding("A-401", with: .startOver)           // session expired: log in again
///     .overriding("N-503", with: .fallBackToCache)     // server down: show cached data
/// policy.reaction(for: ErrorReport(LoginError.wrongPassword))   // .alert
/// ```
public struct ReactionPolicy: Sendable {
    private let rule: @Sendable (Classification, ErrorOrigin) -> ErrorReaction
    private var overrides: [ErrorCode: ErrorReaction] = [:]

    /// Creates a policy from a rule. The background rule (never alert) still applies to its answers.
    public init(_ rule: @escaping @Sendable (Classification, ErrorOrigin) -> ErrorReaction) {
        self.rule = rule
    }

    /// The standard policy, by category:
    ///
    /// | category | reaction |
    /// | --- | --- |
    /// | `.userActionable`, `.unrecoverable`, `.bug` | `.alert` |
    /// | `.transient` | `.retry(maxAttempts: 3, backoff: .exponential())` |
    /// | `.expected` | `.ignore` |
    public static let standard = ReactionPolicy { classification, _ in
        switch classification.category {
        case .userActionable, .unrecoverable, .bug: .alert
        case .transient: .retry(maxAttempts: 3, backoff: .exponential())
        case .expected: .ignore
        }
    }

    /// A copy of this policy that answers `reaction` for errors with `code`, whatever the rule says.
    public func overriding(_ code: ErrorCode, with reaction: ErrorReaction) -> ReactionPolicy {
        var copy = self
        copy.overrides[code] = reaction
        return copy
    }

    /// The reaction to an error of this classification and origin.
    public func reaction(for classification: Classification, origin: ErrorOrigin) -> ErrorReaction {
        let reaction = overrides[classification.code] ?? rule(classification, origin)
        if origin == .background, reaction == .alert { return .ignore }
        return reaction
    }

    /// The reaction to a report.
    public func reaction(for report: ErrorReport) -> ErrorReaction {
        reaction(for: report.classification, origin: report.origin)
    }

    /// Classifies `error` and returns the reaction to it.
    public func reaction(to error: any Error, origin: ErrorOrigin = .user) -> ErrorReaction {
        reaction(for: Classification(of: error), origin: origin)
    }
}
