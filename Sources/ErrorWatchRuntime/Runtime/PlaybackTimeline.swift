import Foundation

/// When each event of a recording plays: its recorded offset divided by the speed, except that a silence longer
/// than ``maximumGap`` of playback time plays as exactly ``maximumGap``. The time taken out is added up, so the
/// player can say how much it skipped.
///
/// A pure value: the same offsets always give the same placements, on any clock.
///
/// ```swift
/// var timeline = PlaybackTimeline(speed: 2, maximumGap: .seconds(5))
/// timeline.place(.zero).at               // 0 s
/// timeline.place(.seconds(4)).at         // 2 s
/// timeline.place(.seconds(86_404))       // at 7 s, skipped 23h 59m 50s of the recording
/// ```
public struct PlaybackTimeline: Sendable, Equatable {
    /// Where one event plays.
    public struct Placement: Sendable, Equatable {
        /// Playback time from the start of playing.
        public var at: Duration
        /// Recorded time left out just before this event (its silence minus ``maximumGap`` × speed); `nil` when
        /// the silence before it played in full.
        public var skipped: Duration?
    }

    /// Recorded seconds per playback second.
    public let speed: Double
    /// The longest silence played in full, in playback time; `nil` plays every silence in full.
    public let maximumGap: Duration?
    /// Recorded time left out so far.
    public private(set) var skipped: Duration = .zero
    /// Silences shortened so far.
    public private(set) var compressedGaps = 0
    /// Where the last event played; `nil` before the first.
    public private(set) var position: Duration?
    /// Playback time taken out so far: a later offset plays at `offset / speed - removed`, so without any
    /// compression every event plays exactly at `offset / speed`.
    private var removed: Duration = .zero
    private var lastOffset: Duration = .zero

    /// A timeline at `speed` (positive and finite) that shortens silences longer than `maximumGap` (positive).
    public init(speed: Double, maximumGap: Duration?) {
        precondition(speed > 0 && speed.isFinite, "speed must be positive and finite")
        precondition(maximumGap.map { $0 > .zero } ?? true, "a maximum gap must be positive")
        self.speed = speed
        self.maximumGap = maximumGap
    }

    /// Places the event recorded at `offset` (offsets must not decrease).
    public mutating func place(_ offset: Duration) -> Placement {
        defer { lastOffset = offset }
        let natural = offset / speed - removed
        guard let last = position else {
            position = natural
            return Placement(at: natural, skipped: nil)
        }
        if let maximumGap, natural - last > maximumGap {
            let at = last + maximumGap
            removed += natural - at
            let left = max(.zero, (offset - lastOffset) - maximumGap * speed)
            skipped += left
            compressedGaps += 1
            position = at
            return Placement(at: at, skipped: left)
        }
        position = natural
        return Placement(at: natural, skipped: nil)
    }
}
