import DequeModule
import Synchronization

/// A current value plus a multicast sequence of its changes that never fails and never ends on an error.
///
/// Like RxSwift's `BehaviorRelay`: there is no way to send an error into it, so a failure somewhere upstream
/// cannot end the bindings that read it. Each iteration of ``values`` is its own subscriber: it receives the
/// value current when it starts, then every later change, in order, without loss (changes are buffered per
/// subscriber). A sequence ends only after ``finish()``, or when its task is cancelled.
///
/// ```swift
/// let banner = StateRelay<String?>(nil)
/// Task { for await text in banner.values { render(text) } }
/// banner.accept("Wrong password")
/// banner.update { $0 = nil }
/// ```
public final class StateRelay<Value: Sendable>: Sendable {
    private struct Subscriber {
        var buffer: Deque<Value>
        var waiter: CheckedContinuation<Value?, Never>?
    }

    private struct State {
        var value: Value
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var finished = false

        /// Hands `value` to every subscriber: to its waiter if it has one, else to its buffer.
        mutating func deliver(_ value: Value) -> [CheckedContinuation<Value?, Never>] {
            var waiters: [CheckedContinuation<Value?, Never>] = []
            for id in Array(subscribers.keys) {
                if let waiter = subscribers[id]?.waiter {
                    subscribers[id]?.waiter = nil
                    waiters.append(waiter)
                } else {
                    subscribers[id]?.buffer.append(value)
                }
            }
            return waiters
        }
    }

    private let state: Mutex<State>

    /// Creates a relay holding `initial`.
    public init(_ initial: Value) {
        state = Mutex(State(value: initial))
    }

    /// The current value.
    public var value: Value { state.withLock { $0.value } }

    /// How many iterations of ``values`` are subscribed right now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Replaces the value and delivers it to every subscriber. Ignored after ``finish()``.
    public func accept(_ newValue: Value) {
        update { $0 = newValue }
    }

    /// Changes the value atomically and delivers the result to every subscriber. Ignored after ``finish()``.
    ///
    /// `body` runs while the relay's lock is held: keep it short and do not touch the relay from it.
    public func update(_ body: (inout Value) -> Void) {
        let (waiters, delivered): ([CheckedContinuation<Value?, Never>], Value?) = state.withLock { s in
            guard !s.finished else { return ([], nil) }
            body(&s.value)
            return (s.deliver(s.value), s.value)
        }
        // Resumed outside the lock; order is kept because a waiter is handed exactly one value under the lock.
        if let delivered {
            for waiter in waiters { waiter.resume(returning: delivered) }
        }
    }

    /// Ends every subscriber's sequence once it has drained its buffer; later changes are ignored.
    public func finish() {
        let waiters: [CheckedContinuation<Value?, Never>] = state.withLock { s in
            s.finished = true
            return s.subscribers.values.compactMap(\.waiter)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Accepts every element of `source` until it ends, for example the values of a surviving binding.
    ///
    /// ```swift
    /// await relay.bind(loginTaps.performEach { try await auth.login($0) }.values())
    /// ```
    public func bind<Source: AsyncSequence<Value, Never>>(
        _ source: Source, isolation: isolated (any Actor)? = #isolation
    ) async {
        var iterator = source.makeAsyncIterator()
        while let value = await iterator.next(isolation: isolation) {
            accept(value)
        }
    }

    /// The current value, then every change: a new subscriber per iteration.
    public var values: Values { Values(relay: self) }

    // MARK: Subscriptions

    fileprivate func subscribe() -> UInt64 {
        state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = Subscriber(buffer: [s.value])
            return id
        }
    }

    fileprivate func unsubscribe(_ id: UInt64) {
        let waiter = state.withLock { $0.subscribers.removeValue(forKey: id)?.waiter }
        waiter?.resume(returning: nil)
    }

    fileprivate func next(_ id: UInt64) async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                let ready: Value?? = state.withLock { s in
                    guard s.subscribers[id] != nil else { return .some(nil) }
                    if let first = s.subscribers[id]?.buffer.popFirst() { return .some(first) }
                    if s.finished || Task.isCancelled {
                        s.subscribers[id] = nil
                        return .some(nil)
                    }
                    s.subscribers[id]?.waiter = continuation
                    return .none
                }
                if case .some(let value) = ready { continuation.resume(returning: value) }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }

    /// One subscriber's registration; unsubscribes when its iterator goes away.
    fileprivate final class Subscription: Sendable {
        let relay: StateRelay
        let id: UInt64

        init(relay: StateRelay) {
            self.relay = relay
            self.id = relay.subscribe()
        }

        deinit { relay.unsubscribe(id) }
    }

    /// The current value, then every change; never throws.
    public struct Values: AsyncSequence, Sendable {
        /// A value of the relay.
        public typealias Element = Value
        /// Never: a relay cannot fail.
        public typealias Failure = Never

        let relay: StateRelay

        /// One subscriber.
        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let subscription: Subscription

            /// The next value, or `nil` after ``StateRelay/finish()`` or cancellation.
            public mutating func next() async -> Value? {
                await subscription.relay.next(subscription.id)
            }
        }

        /// Subscribes: the iterator first yields the value current now.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(subscription: Subscription(relay: relay))
        }
    }
}
