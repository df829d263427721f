import Synchronization

/// An ``AlertCoalescer`` behind a lock, for reports arriving from many tasks.
///
/// The dashboard's event loop can own a plain ``AlertCoalescer``; app code that reports from anywhere uses
/// this wrapper. It can also consume a stream directly:
///
/// ```swift
/// let alerts = SharedAlertCoalescer(clock: ContinuousClock(), configuration: .standard)
/// Task {
///     for await event in stream.events {
///         if case .alert(let alert) = alerts.receive(ErrorReport(event)) { show(alert.title) }
///     }
/// }
/// ```
public final class SharedAlertCoalescer<C: Clock>: Sendable {
    private let state: Mutex<AlertCoalescer<C>>
    /// The clock the coalescer reads.
    public let clock: C

    /// Creates a coalescer with no alerts.
    public init(clock: C, configuration: AlertCoalescer<C>.Configuration) {
        self.clock = clock
        self.state = Mutex(AlertCoalescer(clock: clock, configuration: configuration))
    }

    /// Receives a report now and decides whether to alert.
    @discardableResult
    public func receive(_ report: ErrorReport) -> AlertCoalescer<C>.Decision {
        let now = clock.now
        return state.withLock { $0.receive(report, at: now) }
    }

    /// Receives a report at `instant` and decides whether to alert.
    @discardableResult
    public func receive(_ report: ErrorReport, at instant: C.Instant) -> AlertCoalescer<C>.Decision {
        state.withLock { $0.receive(report, at: instant) }
    }

    /// The alerts active now, oldest first.
    public var activeAlerts: [AlertCoalescer<C>.Alert] {
        let now = clock.now
        return state.withLock { $0.activeAlerts(at: now) }
    }

    /// Forgets one group, for example when the user dismisses its alert.
    public func dismiss(_ fingerprint: String) {
        state.withLock { $0.dismiss(fingerprint) }
    }

    /// Forgets the groups that are no longer active now.
    public func prune() {
        let now = clock.now
        state.withLock { $0.prune(at: now) }
    }
}
