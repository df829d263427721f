import Synchronization

/// One replaceable callback, safe to set and call from any thread.
///
/// The closure is kept inside a concrete struct on purpose: a bare closure stored in a generic `Mutex` is
/// re-wrapped in a reabstraction thunk on every `inout` access, and calling it then recurses once per access.
final class Observer<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let body: @Sendable (Value) -> Void
    }

    private let entry = Mutex<Entry?>(nil)

    init() {}

    /// Replaces the callback.
    func set(_ body: @escaping @Sendable (Value) -> Void) { entry.withLock { $0 = Entry(body: body) } }

    /// Calls the callback, if one is set, outside the lock.
    func notify(_ value: Value) { entry.withLock { $0 }?.body(value) }
}
