/// Building the tree: every method returns a new child of the node it is called on.
extension ErrorHandler {
    // MARK: Catch everything

    /// A child whose action sees every error that reaches it.
    ///
    /// Return to consume the error; throw to pass it on (throw the same error, or a rewritten one that
    /// the nodes below see instead).
    ///
    /// ```swift
    /// let screen = root.catch { error in showBanner(error) }
    /// ```
    public func `catch`(name: String? = nil, _ action: @escaping Action) -> ErrorHandler {
        ErrorHandler(parent: self, name: name, step: .sync(action), observer: nil)
    }

    /// A child whose asynchronous action sees every error that reaches it.
    public func `catch`(name: String? = nil, _ action: @escaping AsyncAction) -> ErrorHandler {
        ErrorHandler(parent: self, name: name, step: .async(action), observer: nil)
    }

    // MARK: Catch one type

    /// A child that handles errors of type `E` and passes every other error on, untouched.
    ///
    /// ```swift
    /// let login = root.catch(LoginError.self) { (error: LoginError) in banner = error.message }
    /// ```
    public func `catch`<E: Error>(
        _ type: E.Type, name: String? = nil, _ action: @escaping @Sendable (E) throws -> Void
    ) -> ErrorHandler {
        self.catch(name: name) { (error: any Error) throws in
            guard let typed = error as? E else { throw error }
            try action(typed)
        }
    }

    /// A child that handles errors of type `E` with an asynchronous action and passes every other error on.
    public func `catch`<E: Error>(
        _ type: E.Type, name: String? = nil, _ action: @escaping @Sendable (E) async throws -> Void
    ) -> ErrorHandler {
        self.catch(name: name) { (error: any Error) async throws in
            guard let typed = error as? E else { throw error }
            try await action(typed)
        }
    }

    // MARK: Catch one value

    /// A child that handles only errors equal to `value` and passes every other error on, untouched.
    ///
    /// ```swift
    /// let session = root.catch(LoginError.sessionExpired) { restartLogin() }
    /// ```
    public func `catch`<E: Error & Equatable>(
        _ value: E, name: String? = nil, _ action: @escaping @Sendable () throws -> Void
    ) -> ErrorHandler {
        self.catch(name: name) { (error: any Error) throws in
            guard let typed = error as? E, typed == value else { throw error }
            try action()
        }
    }

    /// A child that handles only errors equal to `value` with an asynchronous action.
    public func `catch`<E: Error & Equatable>(
        _ value: E, name: String? = nil, _ action: @escaping @Sendable () async throws -> Void
    ) -> ErrorHandler {
        self.catch(name: name) { (error: any Error) async throws in
            guard let typed = error as? E, typed == value else { throw error }
            try await action()
        }
    }

    // MARK: Listen

    /// A child that observes errors of type `E` thrown at it or below it, and never handles them.
    ///
    /// The listener runs during the climb, so it sees every such error as it was thrown, even one that an
    /// ancestor later consumes or rewrites. Keep it quick; hop to a task for slow work.
    ///
    /// ```swift
    /// let screen = root.listen(LoginError.self) { error in analytics.count(error) }
    /// ```
    public func listen<E: Error>(
        _ type: E.Type, name: String? = nil, _ listener: @escaping @Sendable (E) -> Void
    ) -> ErrorHandler {
        ErrorHandler(
            parent: self, name: name, step: .passOn,
            observer: { error, _ in
                if let typed = error as? E { listener(typed) }
            })
    }

    /// A child that observes every error thrown at it or below it, with the thrower's context, and never
    /// handles them.
    public func listen(name: String? = nil, _ listener: @escaping Observer) -> ErrorHandler {
        ErrorHandler(parent: self, name: name, step: .passOn, observer: listener)
    }
}
