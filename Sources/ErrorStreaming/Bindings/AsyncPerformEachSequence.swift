extension AsyncSequence {
    /// Runs `operation` for each element and delivers its outcome as a `Result`, so one failure does not end
    /// the sequence.
    ///
    /// In reactive code, an error thrown inside a `map` ends the sequence and every binding downstream:
    /// after one wrong password, the login button would do nothing ever again. Catching *outside* the
    /// per-element operation does not help either, because the sequence has already ended by then. This
    /// operator catches *per attempt* (Combine's `catch` inside `flatMap`), so every tap gets its own outcome:
    ///
    /// ```swift
    /// for await outcome in loginTaps.performEach({ try await auth.login($0) }) {
    ///     switch outcome {
    ///     case .success(let user): show(user)
    ///     case .failure(let error): banner.show(error)   // and the next tap still logs in
    ///     }
    /// }
    /// ```
    ///
    /// Elements are `Sendable` because the operation runs off the caller's actor. Elements are processed one
    /// at a time, in order. Errors thrown by the *upstream* sequence are not caught:
    /// they still end this sequence, so a non-throwing upstream gives a non-throwing sequence.
    public func performEach<Output>(
        _ operation: @escaping @Sendable (Element) async throws -> Output
    ) -> AsyncPerformEachSequence<Self, Output> where Element: Sendable {
        AsyncPerformEachSequence(base: self, operation: operation)
    }
}

/// A sequence of the outcomes of an operation run for each upstream element; see
/// ``_Concurrency/AsyncSequence/performEach(_:)``.
public struct AsyncPerformEachSequence<Base: AsyncSequence, Output>: AsyncSequence where Base.Element: Sendable {
    /// The outcome of the operation for one upstream element.
    public typealias Element = Result<Output, any Error>
    /// The upstream's failure: only upstream errors end the sequence.
    public typealias Failure = Base.Failure

    let base: Base
    let operation: @Sendable (Base.Element) async throws -> Output

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let operation: @Sendable (Base.Element) async throws -> Output

        /// The outcome for the next upstream element, or `nil` when upstream finished.
        public mutating func next() async throws(Base.Failure) -> Element? {
            try await next(isolation: nil)
        }

        /// The outcome for the next upstream element, or `nil` when upstream finished.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            guard let element = try await base.next(isolation: actor) else { return nil }
            do {
                return .success(try await operation(element))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Starts iterating the upstream sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), operation: operation)
    }
}

extension AsyncPerformEachSequence: Sendable where Base: Sendable {}
