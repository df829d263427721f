/// Building the tree: every method returns a new child of the node it is called on.
///
/// Every node gets a ``ErrorHandler/name``: the `name` given, else its type filter (`"LoginError"`,
/// `"LoginError.sessionExpired"`), else where it was made (`"Shop/CartScreen.swift:42"`, from the defaulted
/// `file` and `line`).
extension ErrorHandler {
    // MARK: Catch everything

    /// A child whose action sees every error that reaches it.
    ///
    /// Return to consume the error; throw to pass it on (throw the same error, or a rewritten one that
    /// the nodes below see instead).
    ///
    /// ```swift
    /// let screen = root.catch(name: "cart screen") { error in showBanner(error) }
    /// ```
    /// - Parameters:
    ///   - name: the node's name in handling reports; `nil` names it after `file` and `line`.
    public func `catch`(
        name: String? = nil, file: StaticString = #fileID, line: UInt = #line, _ action: @escaping Action
    ) -> ErrorHandler {
        ErrorHandler(parent: self, name: name ?? Self.name(file: file, line: line), step: .sync(action), observer: nil)
    }

    /// A child whose asynchronous action sees every error that reaches it.
    public func `catch`(
        name: String? = nil, file: StaticString = #fileID, line: UInt = #line, _ action: @escaping AsyncAction
    ) -> ErrorHandler {
        ErrorHandler(parent: self, name: name ?? Self.name(file: file, line: line), step: .async(action), observer: nil)
    }

    // MARK: Catch one type

    /// A child that handles errors of type `E` and passes every other error on, untouched.
    ///
    /// Its action runs only for errors of type `E`: a node that lets an error of another type by does not appear
    /// in the handling report's path. Named `"E"` (the short type name) unless `name` is given.
    ///
    /// ```swift
    /// let login = root.catch(LoginError.self) { (error: LoginError) in banner = error.message }
    /// ```
    public func `catch`<E: Error>(
        _ type: E.Type, name: String? = nil, _ action: @escaping @Sendable (E) throws -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name ?? Self.typeName(E.self),
            step: .sync { (error: any Error) throws in
                guard let typed = error as? E else { throw error }
                try action(typed)
            },
            filter: { $0 is E }, observer: nil)
    }

    /// A child that handles errors of type `E` with an asynchronous action and passes every other error on.
    public func `catch`<E: Error>(
        _ type: E.Type, name: String? = nil, _ action: @escaping @Sendable (E) async throws -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name ?? Self.typeName(E.self),
            step: .async { (error: any Error) async throws in
                guard let typed = error as? E else { throw error }
                try await action(typed)
            },
            filter: { $0 is E }, observer: nil)
    }

    // MARK: Catch one value

    /// A child that handles only errors equal to `value` and passes every other error on, untouched.
    ///
    /// Named after the value (`"LoginError.sessionExpired"`) unless `name` is given.
    ///
    /// ```swift
    /// let session = root.catch(LoginError.sessionExpired) { restartLogin() }
    /// ```
    public func `catch`<E: Error & Equatable>(
        _ value: E, name: String? = nil, _ action: @escaping @Sendable () throws -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name ?? Self.valueName(value), step: .sync { _ in try action() },
            filter: { ($0 as? E) == value }, observer: nil)
    }

    /// A child that handles only errors equal to `value` with an asynchronous action.
    public func `catch`<E: Error & Equatable>(
        _ value: E, name: String? = nil, _ action: @escaping @Sendable () async throws -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name ?? Self.valueName(value), step: .async { _ in try await action() },
            filter: { ($0 as? E) == value }, observer: nil)
    }

    // MARK: Listen

    /// A child that observes errors of type `E` thrown at it or below it, and never handles them.
    ///
    /// The listener runs during the climb, so it sees every such error as it was thrown, even one that an
    /// ancestor later consumes or rewrites. Keep it quick; hop to a task for slow work. Named `"E"` unless `name`
    /// is given; having no action, it never appears in a handling report's path.
    ///
    /// ```swift
    /// let screen = root.listen(LoginError.self) { error in analytics.count(error) }
    /// ```
    public func listen<E: Error>(
        _ type: E.Type, name: String? = nil, _ listener: @escaping @Sendable (E) -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name ?? Self.typeName(E.self), step: .passOn,
            observer: { error, _ in
                if let typed = error as? E { listener(typed) }
            })
    }

    /// A child that observes every error thrown at it or below it, with the thrower's context, and never
    /// handles them. Named after where it was made unless `name` is given.
    public func listen(
        name: String? = nil, file: StaticString = #fileID, line: UInt = #line, _ listener: @escaping Observer
    ) -> ErrorHandler {
        ErrorHandler(parent: self, name: name ?? Self.name(file: file, line: line), step: .passOn, observer: listener)
    }

    // MARK: Default names

    /// The short name of a type filter: `"LoginError"`.
    static func typeName(_ type: any Any.Type) -> String { String(describing: type) }

    /// The name of a value filter: `"LoginError.sessionExpired"`, `"LoginError.locked(minutes: 5)"`.
    ///
    /// The value as Swift prints it when the type does not describe itself (`"Module.LoginError.sessionExpired"`),
    /// with the short type name. A type with its own description is named `"<type>.<description>"`.
    static func valueName<E>(_ value: E) -> String {
        let type = typeName(E.self)
        let qualifiedType = String(reflecting: E.self)
        let reflected = String(reflecting: value)
        if reflected.hasPrefix(qualifiedType) { return type + reflected.dropFirst(qualifiedType.count) }
        return "\(type).\(value)"
    }
}
