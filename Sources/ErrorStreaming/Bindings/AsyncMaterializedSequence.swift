extension AsyncSequence {
    /// Turns this (possibly throwing) sequence into one that never throws: each element arrives as
    /// `.success`, and a thrown error as one final `.failure`, after which the sequence ends.
    ///
    /// Like RxSwift's `materialize()`: the failure becomes a value that a `for await` loop can look at without
    /// a `do`/`catch` around the loop.
    ///
    /// ```swift
    /// for await result in downloads.materialized() {
    ///     switch result {
    ///     case .success(let chunk): append(chunk)
    ///     case .failure(let error): show(error)
    ///     }
    /// }
    /// ```
    public func materialized() -> AsyncMaterializedSequence<Self> {
        AsyncMaterializedSequence(base: self)
    }
}

/// A sequence of `Result`s that never throws; see ``_Concurrency/AsyncSequence/materialized()``.
public struct AsyncMaterializedSequence<Base: AsyncSequence>: AsyncSequence {
    /// Each upstream element as `.success`, an upstream error as `.failure`.
    public typealias Element = Result<Base.Element, any Error>
    /// Never: failures arrive as elements.
    public typealias Failure = Never

    let base: Base

    /// The iterator; it ends after delivering the upstream failure.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var finished = false

        /// The next result, or `nil` once upstream finished or failed.
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

        /// The next result, or `nil` once upstream finished or failed, staying on the caller's actor.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard !finished else { return nil }
            do {
                guard let element = try await base.next(isolation: actor) else {
                    finished = true
                    return nil
                }
                return .success(element)
            } catch {
                finished = true
                return .failure(error)
            }
        }
    }

    /// Starts iterating the upstream sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }
}

extension AsyncMaterializedSequence: Sendable where Base: Sendable {}

extension AsyncSequence {
    /// The successful values of a sequence of `Result`s, skipping the failures.
    ///
    /// ```swift
    /// for await profile in results.values() { render(profile) }
    /// ```
    public func values<Success, Fault: Error>() -> AsyncCompactMapSequence<Self, Success>
    where Element == Result<Success, Fault> {
        compactMap { result in
            guard case .success(let value) = result else { return nil }
            return value
        }
    }

    /// The failures of a sequence of `Result`s, skipping the successful values.
    ///
    /// ```swift
    /// for await error in results.failures() { banner.show(error) }
    /// ```
    public func failures<Success, Fault: Error>() -> AsyncCompactMapSequence<Self, Fault>
    where Element == Result<Success, Fault> {
        compactMap { result in
            guard case .failure(let error) = result else { return nil }
            return error
        }
    }

    /// Adds every failure of a sequence of `Result`s to `stream`, and passes every element on unchanged.
    ///
    /// The failures' events carry the location of this call (``ErrorEvent/location``).
    ///
    /// ```swift
    /// let results = loginTaps.performEach { try await auth.login($0) }
    ///     .reportingFailures(to: stream, context: ErrorContext(source: "auth.login"))
    /// ```
    public func reportingFailures<Success, Fault: Error>(
        to stream: ErrorStream, context: ErrorContext = .default, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> AsyncMapSequence<Self, Element> where Element == Result<Success, Fault> {
        let location = CapturedLocation(file: file, line: line, function: function)
        return map { result in
            if case .failure(let error) = result { stream.add(error, context: context, location: location) }
            return result
        }
    }
}
