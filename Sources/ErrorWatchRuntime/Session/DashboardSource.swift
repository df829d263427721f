import ErrorStreaming
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

/// Something outside the process that feeds the dashboard: listeners and tailed files (``ExternalSources``), or a
/// recording being played (``ReplaySource``).
public protocol DashboardSource: Sendable {
    /// Starts delivering into the runtime's ingest. Throws a clear error when it cannot start (a live socket, a
    /// port in use); nothing is left running then.
    func start(into runtime: DashboardRuntime) async throws
    /// Stops delivering and releases what it holds (connections, socket files, tasks).
    func shutdown() async
}
