/// Runs `operation` until it succeeds, at most `maxAttempts` times, waiting by `backoff` between attempts.
///
/// Each failed attempt is added to `stream` (when given) with `context.attempt` set to its number, 1 for the
/// first try, so the dashboard shows `attempt 2 of 3`. It stops early when:
///
/// - `shouldRetry` returns `false` for an error: that error is thrown at once;
/// - the task is cancelled, before an attempt or during a wait, or the operation throws `CancellationError`:
///   `CancellationError` is thrown, and cancellation is not reported as a failed attempt.
///
/// When every attempt fails, the last error is thrown.
///
/// ```swift
/// let profile = try await retry(maxAttempts: 3, backoff: .exponential(), clock: ContinuousClock()) {
///     try await api.fetchProfile()
/// }
/// ```
///
/// - Parameters:
///   - maxAttempts: attempts in all, the first included; at least 1.
///   - backoff: the delay after each failed attempt (see ``Backoff``).
///   - clock: the clock to wait on; inject a ``ManualClock`` in tests.
///   - random: a number in `0..<1` for each delay's jitter; inject a constant for reproducible delays.
///   - stream: where failed attempts are reported, if anywhere.
///   - context: the context of reported failures; its `attempt` is replaced by the attempt number.
///   - shouldRetry: whether an error is worth another attempt; by default every error but cancellation.
///   - file: the file reported failures give as their ``ErrorEvent/location``; the caller's by default.
///   - line: the line reported failures give as their location; the caller's by default.
///   - function: the function reported failures give as their location; the caller's by default.
///   - operation: the work to attempt.
public func retry<T, C: Clock>(
    maxAttempts: Int = 3,
    backoff: Backoff = .exponential(),
    clock: C = ContinuousClock(),
    random: () -> Double = { Double.random(in: 0..<1) },
    reportingTo stream: ErrorStream? = nil,
    context: ErrorContext = .default,
    shouldRetry: (any Error) -> Bool = { _ in true },
    file: StaticString = #fileID,
    line: UInt = #line,
    function: StaticString = #function,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> T
) async throws -> T where C.Duration == Duration {
    let attempts = max(maxAttempts, 1)
    var attempt = 1
    while true {
        try Task.checkCancellation()
        do {
            return try await operation()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if let stream {
                var attemptContext = context
                attemptContext.attempt = attempt
                stream.add(
                    error, context: attemptContext,
                    location: CapturedLocation(file: file, line: line, function: function))
            }
            try Task.checkCancellation()
            guard attempt < attempts, shouldRetry(error) else { throw error }
            let delay = backoff.delay(afterAttempt: attempt, random: random())
            if delay > .zero {
                try await clock.sleep(for: delay)
            }
            attempt += 1
        }
    }
}

/// Runs `operation` as a reaction prescribes: retried for ``ErrorReaction/retry(maxAttempts:backoff:)``, once
/// for any other reaction.
///
/// ```swift
/// let reaction = policy.reaction(to: firstError)
/// let value = try await retry(as: reaction, clock: clock) { try await sync() }
/// ```
public func retry<T, C: Clock>(
    as reaction: ErrorReaction,
    clock: C = ContinuousClock(),
    reportingTo stream: ErrorStream? = nil,
    context: ErrorContext = .default,
    file: StaticString = #fileID,
    line: UInt = #line,
    function: StaticString = #function,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> T
) async throws -> T where C.Duration == Duration {
    guard case .retry(let maxAttempts, let backoff) = reaction else {
        return try await operation()
    }
    return try await retry(
        maxAttempts: maxAttempts, backoff: backoff, clock: clock, reportingTo: stream, context: context,
        file: file, line: line, function: function, isolation: isolation, operation: operation)
}
