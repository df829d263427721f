import DequeModule
import Foundation
import Synchronization

/// A broadcast channel for errors: any part of an app adds errors, many listeners each receive all of them.
///
/// PROVISIONAL IMPLEMENTATION: the public API is final; the internals are a simple lock plus
/// per-listener buffers and are being replaced by the shared-log design (issue 2).
public final class ErrorStream: Sendable {
    /// What a listener's buffer does when the listener falls behind.
    public enum BufferingPolicy: Sendable, Hashable {
        /// Keep everything. Memory grows without limit behind a listener that never reads.
        case unbounded
        /// Keep the newest `n` undelivered events, dropping the oldest.
        case bufferingNewest(Int)
        /// Keep the oldest `n` undelivered events, dropping new ones.
        case bufferingOldest(Int)

        /// The default: `.bufferingNewest(1024)`.
        public static let `default` = BufferingPolicy.bufferingNewest(1024)
    }

    /// Counters describing the stream's life so far.
    public struct Statistics: Sendable, Hashable {
        /// Errors accepted by `add` before `finish()`.
        public var added: UInt64
        /// Deliveries dropped by bounded listener buffers, summed over listeners.
        public var dropped: UInt64
        /// Listeners registered right now.
        public var subscribers: Int
        /// Calls to `add` after `finish()`, ignored.
        public var addedAfterFinish: UInt64
    }

    /// The process-wide stream used by the static facade (`ErrorStream.add(_:)`, `ErrorStream.updates`).
    public static let shared = ErrorStream()

    private struct Subscriber {
        var buffer: Deque<ErrorEvent> = []
        var policy: BufferingPolicy
        var waiter: CheckedContinuation<ErrorEvent?, Never>?
        var dropped: UInt64 = 0
    }

    private struct State {
        var nextSequence: UInt64 = 1
        var nextID: UInt64 = 0
        var subscribers: [UInt64: Subscriber] = [:]
        var history: Deque<ErrorEvent> = []
        var finished = false
        var added: UInt64 = 0
        var dropped: UInt64 = 0
        var addedAfterFinish: UInt64 = 0
    }

    private let state = Mutex(State())
    private let historyCapacity: Int
    private let now: @Sendable () -> Date

    /// Creates a stream.
    /// - Parameters:
    ///   - historyCapacity: how many recent events the stream keeps for listeners that ask for replay.
    ///   - now: the time source for event timestamps; inject a fixed one in tests.
    public init(historyCapacity: Int = 256, now: @escaping @Sendable () -> Date = { Date() }) {
        self.historyCapacity = max(0, historyCapacity)
        self.now = now
    }

    /// Adds an error with the default context. Never waits on a listener.
    public func add(_ error: any Error) { add(error, context: .default) }

    /// Adds an error with what the producer knows about it. Never waits on a listener.
    public func add(_ error: any Error, context: ErrorContext) {
        let timestamp = now()
        var toResume: [(CheckedContinuation<ErrorEvent?, Never>, ErrorEvent)] = []
        state.withLock { s in
            guard !s.finished else {
                s.addedAfterFinish += 1
                return
            }
            let event = ErrorEvent(error: error, sequence: s.nextSequence, timestamp: timestamp, context: context)
            s.nextSequence += 1
            s.added += 1
            if historyCapacity > 0 {
                if s.history.count == historyCapacity { s.history.removeFirst() }
                s.history.append(event)
            }
            for id in Array(s.subscribers.keys) {
                var sub = s.subscribers[id]!
                if let waiter = sub.waiter {
                    sub.waiter = nil
                    toResume.append((waiter, event))
                } else {
                    switch sub.policy {
                    case .unbounded:
                        sub.buffer.append(event)
                    case .bufferingNewest(let n):
                        if sub.buffer.count >= max(n, 0) {
                            if !sub.buffer.isEmpty { sub.buffer.removeFirst() }
                            sub.dropped += 1
                            s.dropped += 1
                        }
                        if n > 0 { sub.buffer.append(event) }
                    case .bufferingOldest(let n):
                        if sub.buffer.count >= max(n, 0) {
                            sub.dropped += 1
                            s.dropped += 1
                        } else {
                            sub.buffer.append(event)
                        }
                    }
                }
                s.subscribers[id] = sub
            }
        }
        for (continuation, event) in toResume { continuation.resume(returning: event) }
    }

    /// Adds an error, spelling out the context fields.
    public func add(
        _ error: any Error,
        source: String,
        severity: ErrorSeverity = .error,
        origin: ErrorOrigin = .user,
        metadata: [String: String] = [:]
    ) {
        add(error, context: ErrorContext(source: source, severity: severity, origin: origin, metadata: metadata))
    }

    /// Listeners registered right now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Counters: added, dropped, subscribers.
    public var statistics: Statistics {
        state.withLock {
            Statistics(
                added: $0.added, dropped: $0.dropped, subscribers: $0.subscribers.count,
                addedAfterFinish: $0.addedAfterFinish)
        }
    }

    /// Ends every listener's loop once it has drained its buffer; later adds are counted and ignored.
    public func finish() {
        let waiters: [CheckedContinuation<ErrorEvent?, Never>] = state.withLock { s in
            s.finished = true
            var result: [CheckedContinuation<ErrorEvent?, Never>] = []
            for id in Array(s.subscribers.keys) where s.subscribers[id]!.buffer.isEmpty {
                if let w = s.subscribers[id]!.waiter { result.append(w) }
                s.subscribers[id] = nil
            }
            return result
        }
        for w in waiters { w.resume(returning: nil) }
    }

    // MARK: Subscriptions

    fileprivate func register(policy: BufferingPolicy, replay: Int) -> UInt64? {
        state.withLock { s in
            guard !s.finished || false else { return nil }
            let id = s.nextID
            s.nextID += 1
            var sub = Subscriber(policy: policy)
            if replay > 0 {
                for event in s.history.suffix(replay) { sub.buffer.append(event) }
            }
            s.subscribers[id] = sub
            return id
        }
    }

    fileprivate func unregister(_ id: UInt64) {
        let waiter = state.withLock { s in s.subscribers.removeValue(forKey: id)?.waiter }
        waiter?.resume(returning: nil)
    }

    fileprivate func next(_ id: UInt64) async -> ErrorEvent? {
        enum Step { case value(ErrorEvent?), wait }
        let step: Step = state.withLock { s in
            guard var sub = s.subscribers[id] else { return .value(nil) }
            if let first = sub.buffer.popFirst() {
                s.subscribers[id] = sub
                return .value(first)
            }
            if s.finished {
                s.subscribers[id] = nil
                return .value(nil)
            }
            return .wait
        }
        if case .value(let v) = step { return v }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<ErrorEvent?, Never>) in
                let resumeNow: ErrorEvent?? = state.withLock { s in
                    guard var sub = s.subscribers[id] else { return .some(nil) }
                    if let first = sub.buffer.popFirst() {
                        s.subscribers[id] = sub
                        return .some(first)
                    }
                    if s.finished || Task.isCancelled {
                        s.subscribers[id] = nil
                        return .some(nil)
                    }
                    sub.waiter = c
                    s.subscribers[id] = sub
                    return .none
                }
                if case .some(let v) = resumeNow { c.resume(returning: v) }
            }
        } onCancel: {
            self.unregister(id)
        }
    }

    /// Owns one registration; unregisters when the last sequence or iterator holding it goes away.
    fileprivate final class Subscription: Sendable {
        let stream: ErrorStream
        let id: UInt64?
        init(stream: ErrorStream, policy: BufferingPolicy, replay: Int) {
            self.stream = stream
            self.id = stream.register(policy: policy, replay: replay)
        }
        func next() async -> ErrorEvent? {
            guard let id else { return nil }
            return await stream.next(id)
        }
        deinit { if let id { stream.unregister(id) } }
    }

    // MARK: Sequences

    /// Every event added after this value was created (plus `replay` earlier ones), in stream order.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = ErrorEvent
        public typealias Failure = Never
        fileprivate let subscription: Subscription

        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let subscription: Subscription
            public mutating func next() async -> ErrorEvent? { await subscription.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: subscription) }
    }

    /// Every error added after this value was created (plus `replay` earlier ones).
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = any Error
        public typealias Failure = Never
        fileprivate let events: Events

        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var base: Events.AsyncIterator
            public mutating func next() async -> (any Error)? { await base.next()?.error }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: events.makeAsyncIterator()) }
    }

    /// Only the errors of type `T`, typed as `T`.
    public struct TypedUpdates<T: Error>: AsyncSequence, Sendable {
        public typealias Element = T
        public typealias Failure = Never
        fileprivate let events: Events

        public struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var base: Events.AsyncIterator
            public mutating func next() async -> T? {
                while let event = await base.next() {
                    if let typed = event.error as? T { return typed }
                }
                return nil
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: events.makeAsyncIterator()) }
    }

    /// Events with the default buffering policy.
    public var events: Events { events() }

    /// Events, with a buffering policy and an optional replay of up to `replay` earlier events.
    public func events(bufferingPolicy: BufferingPolicy = .default, replay: Int = 0) -> Events {
        Events(subscription: Subscription(stream: self, policy: bufferingPolicy, replay: replay))
    }

    /// Errors with the default buffering policy.
    public var updates: Updates { updates() }

    /// Errors, with a buffering policy and an optional replay.
    public func updates(bufferingPolicy: BufferingPolicy = .default, replay: Int = 0) -> Updates {
        Updates(events: events(bufferingPolicy: bufferingPolicy, replay: replay))
    }

    /// Only errors of type `T`.
    public func updates<T: Error>(
        of type: T.Type, bufferingPolicy: BufferingPolicy = .default, replay: Int = 0
    ) -> TypedUpdates<T> {
        TypedUpdates(events: events(bufferingPolicy: bufferingPolicy, replay: replay))
    }

    // MARK: Static facade

    /// Adds an error to ``shared``.
    public static func add(_ error: any Error) { shared.add(error) }
    /// Adds an error with context to ``shared``.
    public static func add(_ error: any Error, context: ErrorContext) { shared.add(error, context: context) }
    /// Errors added to ``shared``.
    public static var updates: Updates { shared.updates }
    /// Events added to ``shared``.
    public static var events: Events { shared.events }
}
