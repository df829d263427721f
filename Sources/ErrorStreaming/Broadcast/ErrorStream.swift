import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials  // Date, without the rest of Foundation (about 7 MB of resident memory on Linux)
#else
    import Foundation
#endif

/// A broadcast channel for errors: any part of an app adds errors, many listeners each receive all of them.
///
/// ```swift
/// let stream = ErrorStream()
/// let updates = stream.updates            // subscribed from this line on
/// stream.add(LoginError.wrongPassword, source: "auth.login", severity: .warning)
/// for await error in updates where error is LoginError { show(error) }
/// ```
///
/// Every listener reads one shared append-only log through its own cursor, taking many events per lock
/// acquisition. `add` appends once under a short lock, so its cost does not grow with the number of listeners,
/// and never waits on a listener; waiting listeners are resumed after the lock is released. Every added error gets
/// a `sequence` number under that lock, so all listeners see one total order, even with many producer threads.
///
/// A listener is registered when its sequence value is created (`stream.updates`, `stream.events(...)`), not when
/// its loop starts, so nothing added in between is lost. It is unregistered as soon as its loop ends (`break`,
/// `finish()`, task cancellation) or, if never iterated, when the sequence value is dropped.
public final class ErrorStream: Sendable {
    /// What a listener's backlog does when the listener falls behind (AsyncStream's spelling).
    ///
    /// The backlog is what was added for the listener and not yet taken by its loop. Events a bounded policy
    /// drops are counted in ``Statistics/dropped`` and show as gaps in ``ErrorEvent/sequence``.
    ///
    /// ```swift
    /// for await event in stream.events(bufferingPolicy: .bufferingOldest(100)) { … }
    /// ```
    public enum BufferingPolicy: Sendable, Hashable {
        /// Keep everything. Memory grows without limit behind a listener that stops reading.
        case unbounded
        /// Keep the newest `n` undelivered events, dropping the oldest. Memory stays bounded.
        case bufferingNewest(Int)
        /// Keep the oldest `n` undelivered events, dropping new ones while the backlog is full.
        case bufferingOldest(Int)

        /// The default: `.bufferingNewest(1024)`.
        ///
        /// A monitor wants the latest errors rather than stale ones, and must never let a stuck listener (a
        /// frozen UI pane, a blocked forwarder) grow the app's memory. 1024 events absorb bursts of several
        /// seconds at a realistic error rate while costing at most about 100 KB per listener.
        public static let `default` = BufferingPolicy.bufferingNewest(1024)
    }

    /// Counters describing the stream's life so far.
    public struct Statistics: Sendable, Hashable {
        /// Errors accepted by `add` before `finish()`.
        public var added: UInt64
        /// Deliveries dropped by bounded listener backlogs, summed over listeners (current and past).
        public var dropped: UInt64
        /// Listeners registered right now.
        public var subscribers: Int
        /// Calls to `add` after `finish()`, ignored.
        public var addedAfterFinish: UInt64
    }

    /// The process-wide stream used by the static facade (`ErrorStream.add(_:)`, `ErrorStream.updates`).
    public static let shared = ErrorStream()

    let state: Mutex<BroadcastLog>
    /// The handling reports' listeners (see ``report(_:)``); a lock of its own, never held with `state`'s.
    let reports = Mutex(HandlingBroadcast())
    private let now: @Sendable () -> Date
    private let onAdd: (@Sendable (ErrorEvent) -> Void)?
    private let onAddBatch: (@Sendable ([ErrorEvent]) -> Void)?

    /// Creates a stream.
    ///
    /// ```swift
    /// let stream = ErrorStream(historyCapacity: 64, now: { Date(timeIntervalSince1970: 0) })
    /// let counted = ErrorStream(onAdd: { event in counter.count(event) })   // exact counts, no backlog
    /// ```
    /// - Parameters:
    ///   - historyCapacity: how many recent events the stream keeps for listeners that ask for replay.
    ///   - now: the time source for event timestamps; inject a fixed one in tests.
    ///   - onAdd: called with every event, synchronously in ``add(_:file:line:function:)`` on the adding thread,
    ///     after the stream's lock is released: for counting that must be exact whatever the rate, which a
    ///     listener cannot promise (an unbounded one holds a backlog under a storm, a bounded one drops). Keep it
    ///     short and never call back into the stream's `add` from it.
    ///   - onAddBatch: called with the events of each ``add(contentsOf:file:line:function:)``, in order, in one call
    ///     (so a counter takes its lock once per batch), in place of `onAdd` for them; when it is `nil`, `onAdd` is
    ///     called with each. When `onAdd` is `nil`, a single `add` calls it with one event.
    public init(
        historyCapacity: Int = 256, now: @escaping @Sendable () -> Date = { Date() },
        onAdd: (@Sendable (ErrorEvent) -> Void)? = nil, onAddBatch: (@Sendable ([ErrorEvent]) -> Void)? = nil
    ) {
        self.state = Mutex(BroadcastLog(historyCapacity: historyCapacity))
        self.now = now
        self.onAdd = onAdd
        self.onAddBatch = onAddBatch
    }

    /// Adds an error with the default context (source `"app"`, severity `.error`, origin `.user`).
    ///
    /// Synchronous, callable from any thread or actor, and never waits on a listener. The caller's file, line
    /// and function become the event's ``ErrorEvent/location``.
    /// ```swift
    /// stream.add(URLError(.timedOut))
    /// ```
    /// - Returns: the event's ``ErrorEvent/sequence``, or `nil` when the stream is finished and ignored it.
    @discardableResult
    public func add(
        _ error: any Error, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> UInt64? {
        add(error, context: .default, location: CapturedLocation(file: file, line: line, function: function))
    }

    /// Adds an error with what the producer knows about it. Never waits on a listener.
    ///
    /// The caller's file, line and function become the event's ``ErrorEvent/location``; they are kept as
    /// the literals the compiler wrote, so capturing them allocates nothing.
    /// ```swift
    /// stream.add(error, context: ErrorContext(source: "sync", severity: .warning, origin: .background))
    /// ```
    /// - Returns: the event's ``ErrorEvent/sequence``, or `nil` when the stream is finished and ignored it.
    @discardableResult
    public func add(
        _ error: any Error, context: ErrorContext, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> UInt64? {
        add(error, context: context, location: CapturedLocation(file: file, line: line, function: function))
    }

    /// Adds an error, spelling out the context fields.
    ///
    /// ```swift
    /// stream.add(error, source: "auth.login", severity: .warning, origin: .user, metadata: ["user": "ada"])
    /// ```
    /// - Returns: the event's ``ErrorEvent/sequence``, or `nil` when the stream is finished and ignored it.
    @discardableResult
    public func add(
        _ error: any Error,
        source: String,
        severity: ErrorSeverity = .error,
        origin: ErrorOrigin = .user,
        metadata: [String: String] = [:],
        file: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function
    ) -> UInt64? {
        add(
            error, context: ErrorContext(source: source, severity: severity, origin: origin, metadata: metadata),
            location: CapturedLocation(file: file, line: line, function: function))
    }

    /// Adds an error at a location already captured (by the handler tree, `retry`, `reportingFailures`).
    @discardableResult
    func add(_ error: any Error, context: ErrorContext, location: CapturedLocation) -> UInt64? {
        let timestamp = now()
        let (sequence, woken) = state.withLock {
            $0.add(error, context: context, location: location, timestamp: timestamp)
        }
        for waiter in woken { waiter.resume() }
        if let sequence, onAdd != nil || onAddBatch != nil {
            let event = ErrorEvent(
                error: error, sequence: sequence, timestamp: timestamp, context: context, addedAt: location)
            if let onAdd { onAdd(event) } else { onAddBatch?([event]) }
        }
        return sequence
    }

    /// Adds errors that arrived together (a read of a socket, a request, a piece of a file), in order, under one
    /// lock: their sequence numbers are consecutive, waiting listeners are resumed once, and `onAddBatch` hears them
    /// in one call. Each becomes the event a single ``add(_:context:file:line:function:)`` would make, with the
    /// same timestamp. Never waits on a listener.
    ///
    /// ```swift
    /// let added = stream.add(contentsOf: decoded.map { ($0, ErrorContext(source: "feed")) })
    /// ```
    /// - Returns: the sequence numbers given, in order (empty for no errors), or `nil` when the stream is finished
    ///   and ignored them.
    @discardableResult
    public func add(
        contentsOf errors: [(error: any Error, context: ErrorContext)], file: StaticString = #fileID,
        line: UInt = #line, function: StaticString = #function
    ) -> Range<UInt64>? {
        let location = CapturedLocation(file: file, line: line, function: function)
        let timestamp = now()
        let (first, woken) = state.withLock {
            $0.add(contentsOf: errors, location: location, timestamp: timestamp)
        }
        for waiter in woken { waiter.resume() }
        guard let first else { return nil }
        let sequences = first..<first + UInt64(errors.count)
        if !errors.isEmpty, onAdd != nil || onAddBatch != nil {
            let events = zip(sequences, errors).map { sequence, added in
                ErrorEvent(
                    error: added.error, sequence: sequence, timestamp: timestamp, context: added.context,
                    addedAt: location)
            }
            if let onAddBatch { onAddBatch(events) } else if let onAdd { for event in events { onAdd(event) } }
        }
        return sequences
    }

    /// Listeners registered right now (sequence values created and not yet ended or dropped).
    public var subscriberCount: Int { state.withLock { $0.listenerCount } }

    /// A snapshot of the stream's counters.
    ///
    /// ```swift
    /// let stats = stream.statistics
    /// print("\(stats.added) added, \(stats.dropped) dropped, \(stats.subscribers) listening")
    /// ```
    public var statistics: Statistics {
        state.withLock {
            Statistics(
                added: $0.added, dropped: $0.dropped, subscribers: $0.listenerCount,
                addedAfterFinish: $0.addedAfterFinish)
        }
    }

    /// Ends every listener's loop once it has drained its backlog, handling-report listeners' too; later adds
    /// are counted and ignored, later reports ignored.
    ///
    /// ```swift
    /// stream.finish()
    /// stream.add(error)   // ignored; statistics.addedAfterFinish == 1
    /// ```
    public func finish() {
        let woken = state.withLock { $0.finish() }
        for waiter in woken { waiter.resume() }
        let reportWaiters = reports.withLock { $0.finish() }
        for waiter in reportWaiters { waiter.resume() }
    }

    /// Events the log holds right now; bounded unless an `.unbounded` listener falls behind. For tests.
    var retainedCount: Int { state.withLock { $0.retainedCount } }

    /// Waiting listeners right now. For tests.
    var waiterCount: Int { state.withLock { $0.waiterCount } }

    // MARK: Static facade

    /// Adds an error to ``shared``, with the caller's location.
    ///
    /// ```swift
    /// ErrorStream.add(error)
    /// ```
    @discardableResult
    public static func add(
        _ error: any Error, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> UInt64? {
        shared.add(error, file: file, line: line, function: function)
    }

    /// Adds an error with context to ``shared``, with the caller's location.
    @discardableResult
    public static func add(
        _ error: any Error, context: ErrorContext, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function
    ) -> UInt64? {
        shared.add(error, context: context, file: file, line: line, function: function)
    }

    /// Errors added to ``shared`` from now on, with the default buffering policy.
    ///
    /// ```swift
    /// for await error in ErrorStream.updates { log(error) }
    /// ```
    public static var updates: Updates { shared.updates }

    /// Events added to ``shared`` from now on, with the default buffering policy.
    public static var events: Events { shared.events }
}
