import ErrorStreaming
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

/// `errorwatch replay`: a recording played into the runtime at its recorded pace, scaled, streamed from the file,
/// with silences longer than the player's ``RecordingPlayer/maximumGap`` shortened and marked.
public final class ReplaySource: DashboardSource {
    /// The recording.
    public let player: RecordingPlayer
    private let task = LockedTask()

    /// Plays `player`.
    public init(player: RecordingPlayer) { self.player = player }

    public func start(into runtime: DashboardRuntime) async throws {
        let player = self.player
        task.set(Task { await player.play(into: runtime.ingest, clock: runtime.clock) })
    }

    public func shutdown() async { await task.cancelAndWait() }
}
