import Synchronization

/// The pattern most Swift code writes first, kept here as the benchmarks' baseline: a lock around a dictionary of
/// `AsyncStream` continuations, one per listener, yielded to while the lock is held.
///
/// Its known faults (why ErrorStream exists): every `add` costs O(listeners) yields under one lock; a slow or
/// never-iterated listener's buffer grows without limit unless bounded; a listener that is cancelled while
/// `add` holds the lock can deadlock if `onTermination` takes the same lock on the same thread.
final class BaselineStream: Sendable {
    private struct State {
        var nextID = 0
        var continuations: [Int: AsyncStream<any Error>.Continuation] = [:]
    }

    private let state = Mutex(State())
    private let policy: AsyncStream<any Error>.Continuation.BufferingPolicy

    init(policy: AsyncStream<any Error>.Continuation.BufferingPolicy = .unbounded) {
        self.policy = policy
    }

    /// Yields the error to every listener, under the lock.
    func add(_ error: any Error) {
        state.withLock { state in
            for continuation in state.continuations.values { continuation.yield(error) }
        }
    }

    /// A new listener, registered at once.
    var updates: AsyncStream<any Error> {
        let (stream, continuation) = AsyncStream.makeStream(of: (any Error).self, bufferingPolicy: policy)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every listener. The continuations are finished outside the lock, or `onTermination` would deadlock.
    func finish() {
        let continuations = state.withLock { state in
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
