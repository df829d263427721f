import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// `errorwatch replay` and `render --from`: plays a recording into the runtime at its recorded pace, scaled, in
/// bounded time and memory.
///
/// The file is streamed (``RecordingReader``: one chunk and one reorder window held, never the whole file). A
/// silence longer than ``maximumGap`` of playback time plays as ``maximumGap`` (``PlaybackTimeline``), and is
/// marked: the recording's Sources row says `skipped 1d 2h` in total, and the Logs pane gets a line per shortened
/// silence with the recorded times on either side of it.
///
/// Played into a store (`replay --store`), each event is counted once however often the recording is played: the
/// store remembers, by the file's ``FileIdentity``, which events (by position) were played, and a replay shows those
/// again without counting them (``FileMark/Unit/events``).
///
/// ```swift
/// let player = try RecordingPlayer(path: "session.ndjson", speed: 4)
/// await player.play(into: runtime.ingest, clock: runtime.clock)
/// ```
public struct RecordingPlayer: Sendable {
    /// The speeds accepted: outside them a recorded gap divided by the speed overflows the clock's arithmetic or
    /// takes practically forever (`--speed 1e-300` once crashed, `1e-12` hung `render`).
    public static let speeds: ClosedRange<Double> = 0.01...10_000
    /// The longest silence played in full by default: 5 s of playback time.
    public static let defaultMaximumGap: Duration = .seconds(5)

    /// Where the recording is read from.
    public let path: String
    /// Playback speed: 4 plays four times as fast.
    public let speed: Double
    /// The longest silence played in full, in playback time; `nil` plays every silence in full.
    public let maximumGap: Duration?
    /// Events held to put the file's lines back in time order.
    public let reorderCapacity: Int
    /// The time of the first event, which a replaying runtime takes as its start; `nil` for a recording without
    /// events.
    public let startDate: Date?

    /// What a pass over the whole recording found (``measure()``).
    public struct Measurement: Sendable, Equatable {
        /// Good events.
        public var events: Int
        /// Lines that were not events.
        public var badLines: Int
        /// How long playing takes at the player's speed, silences shortened.
        public var playingTime: Duration
        /// Recorded time left out by shortening silences.
        public var skipped: Duration
        /// Silences shortened.
        public var compressedGaps: Int
    }

    /// Opens the recording at `path` and reads its first reorder window, to learn when it starts.
    ///
    /// - Parameters:
    ///   - speed: from ``speeds``.
    ///   - maximumGap: the longest silence played in full (positive), or `nil` for every silence in full.
    /// - Throws: a ``FileProblem`` (`cannot read the recording PATH: no such file or directory`).
    public init(
        path: String, speed: Double = 1, maximumGap: Duration? = RecordingPlayer.defaultMaximumGap,
        reorderCapacity: Int = RecordingReader.defaultReorderCapacity
    ) throws(FileProblem) {
        precondition(Self.speeds.contains(speed), "speed must be within RecordingPlayer.speeds")
        precondition(maximumGap.map { $0 > .zero } ?? true, "a maximum gap must be positive")
        self.path = path
        self.speed = speed
        self.maximumGap = maximumGap
        self.reorderCapacity = reorderCapacity
        startDate = try RecordingReader(path: path, reorderCapacity: reorderCapacity).next()?.event.time
    }

    /// Reads the whole recording without playing it, to learn how long playing takes (`render --from` without
    /// `--duration`). Time is linear in the file's lines and memory is one reorder window, whatever the times.
    public func measure() throws(FileProblem) -> Measurement {
        let reader = try RecordingReader(path: path, reorderCapacity: reorderCapacity)
        var timeline = PlaybackTimeline(speed: speed, maximumGap: maximumGap)
        var events = 0
        while let entry = try reader.next() {
            _ = timeline.place(entry.offset)
            events += 1
        }
        return Measurement(
            events: events, badLines: reader.badLineCount, playingTime: timeline.position ?? .zero,
            skipped: timeline.skipped, compressedGaps: timeline.compressedGaps)
    }

    /// Plays every event into `ingest` at its place on the ``PlaybackTimeline``, sleeping on `clock` in between,
    /// and keeps the recording's Sources row up to date: events, bad lines, the time skipped, `finished`.
    public func play(into ingest: RemoteIngest, clock: ErasedClock) async {
        let name = (path as NSString).lastPathComponent
        let playing = speed == 1 ? "playing" : "playing ×\(Format.speed(speed))"
        var status = SourceStatus(
            id: "replay:" + path, kind: .replay, name: name, detail: path, state: playing, health: .ok)
        var timeline = PlaybackTimeline(speed: speed, maximumGap: maximumGap)
        var played: UInt64 = 0
        func publish(_ state: String, reader: RecordingReader?) {
            status.state = timeline.skipped > .zero ? state + " · skipped " + Format.skipped(timeline.skipped) : state
            status.events = played
            if let reader {
                status.badLines = reader.badLineCount
                status.lastProblem = reader.lastBadLine?.description
            }
            ingest.update(status)
        }
        let reader: RecordingReader
        do {
            reader = try RecordingReader(path: path, reorderCapacity: reorderCapacity)
        } catch {
            status.health = .failing
            status.lastProblem = error.description
            publish("stopped", reader: nil)
            return
        }
        publish(playing, reader: reader)
        // What a store counted of this recording before, and how far this pass counts.
        let known = FileIdentity.of(path: path, unit: .events) { ingest.fileMarks(device: $0, inode: $1) }
        var counted = PlayedPositions(mark: known?.mark)
        func recordMark() {
            guard let identity = known?.identity, let mark = counted.mark(identity: identity, path: path) else {
                return
            }
            ingest.recordRead(mark)
        }
        defer { recordMark() }
        let start = clock.now
        var previous: Date?
        do {
            while let entry = try reader.next() {
                let placement = timeline.place(entry.offset)
                if let skipped = placement.skipped, let previous {
                    mark(skipped, from: previous, to: entry.event.time, playedAs: maximumGap, in: ingest)
                    publish(playing, reader: reader)
                }
                let deadline = start.advanced(by: placement.at)
                if deadline > clock.now { try await clock.sleep(until: deadline, tolerance: nil) }
                ingest.ingest(
                    entry.event, from: "recording " + path, channel: .recording,
                    countedBefore: counted.counts(entry.position))
                counted.played(entry.position)
                previous = entry.event.time
                played += 1
                if played % 64 == 0 {
                    publish(playing, reader: reader)
                    recordMark()
                    // Lets the feeds (and the counting subscription) keep up when many events play at once.
                    try Task.checkCancellation()
                    await Task.yield()
                }
            }
            status.health = .idle
            publish("finished", reader: reader)
        } catch is CancellationError {
            publish("stopped", reader: reader)
        } catch let problem as FileProblem {
            status.health = .failing
            status.lastProblem = problem.description
            publish("stopped", reader: reader)
        } catch {
            publish("stopped", reader: reader)
        }
    }

    /// The Logs pane's mark of a shortened silence.
    private func mark(_ skipped: Duration, from: Date, to: Date, playedAs gap: Duration?, in ingest: RemoteIngest) {
        let played = gap.map { " (played as \(Format.seconds($0)))" } ?? ""
        let message =
            "skipped \(Format.skipped(skipped)) of silence in the recording: \(Format.timestamp(from)) → "
            + "\(Format.timestamp(to))\(played)"
        ingest.inbox.post(
            event: DashboardEvent(
                sequence: 0, timestamp: ingest.now(), kind: .log, level: .notice, source: "errorwatch.replay",
                typeName: "", message: message, from: "recording " + path))
    }
}

extension Format {
    /// `2d 3h`, `1h 5m`, `12m 30s`, `8s`, `0.25s`: recorded time a replay skipped, to two units.
    static func skipped(_ duration: Duration) -> String {
        let whole = duration.wholeMilliseconds() / 1000
        if whole < 60 {
            let value = duration.timeInterval
            return value == value.rounded() ? "\(whole)s" : "\((value * 100).rounded() / 100)s"
        }
        if whole < 3600 { return "\(whole / 60)m \(whole % 60)s" }
        if whole < 86_400 { return "\(whole / 3600)h \(whole / 60 % 60)m" }
        return "\(whole / 86_400)d \(whole / 3600 % 24)h"
    }
}

/// Which events of a recording (by position) are counted: those an earlier pass counted (its mark) and those this
/// pass played. Kept as the lowest position not yet counted and the counted ones above it, which a replay's reorder
/// window keeps few (events play in time order, at most a window away from file order).
struct PlayedPositions {
    private let before: FileMark?
    /// Every position below it is counted.
    private(set) var floor: Int64
    /// Counted positions above ``floor``.
    private(set) var above: Set<Int64> = []
    private var changed = false

    init(mark: FileMark?) {
        before = mark
        floor = mark?.offset ?? 0
        above = Set(mark?.beyond ?? [])
    }

    /// Whether an earlier pass counted the event at `position`.
    func counts(_ position: Int64) -> Bool { before?.counts(position: position) ?? false }

    /// The event at `position` was played (and counted, if it was not before).
    mutating func played(_ position: Int64) {
        guard position >= floor, !above.contains(position) else { return }
        changed = true
        if position == floor {
            floor += 1
            while above.remove(floor) != nil { floor += 1 }
        } else {
            above.insert(position)
        }
    }

    /// The mark to record when something changed since the last one.
    mutating func mark(identity: FileIdentity, path: String) -> FileMark? {
        guard changed else { return nil }
        changed = false
        return FileMark(identity: identity, path: path, offset: floor, unit: .events, beyond: above.sorted())
    }
}
