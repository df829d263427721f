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
    public var skipped: Duration { .microseconds(skippedMicros) }
    /// Silences shortened so far.
    public private(set) var compressedGaps = 0
    /// Where the last event played; `nil` before the first.
    public var position: Duration? { positionMicros.map { .microseconds($0) } }

    // All in whole microseconds, as recordings are written, so the arithmetic is exact: `offset / speed` is the one
    // rounding, and for speeds in 0.01…10,000 it cannot overflow (offsets are clamped to 2^63 µs by the reader).
    private let maximumGapMicros: Int64?
    private var skippedMicros: Int64 = 0
    private var positionMicros: Int64?
    /// Playback time taken out so far: an event plays at `offset / speed - removed`, so without any compression
    /// every event plays exactly at `offset / speed`.
    private var removedMicros: Int64 = 0
    private var lastOffsetMicros: Int64 = 0

    /// A timeline at `speed` (positive and finite) that shortens silences longer than `maximumGap` (positive).
    public init(speed: Double, maximumGap: Duration?) {
        precondition(speed > 0 && speed.isFinite, "speed must be positive and finite")
        precondition(maximumGap.map { $0 > .zero } ?? true, "a maximum gap must be positive")
        self.speed = speed
        self.maximumGap = maximumGap
        maximumGapMicros = maximumGap.map { max(1, Self.micros($0)) }
    }

    /// Places the event recorded at `offset` (offsets must not decrease).
    public mutating func place(_ offset: Duration) -> Placement {
        let offsetMicros = Self.micros(offset)
        defer { lastOffsetMicros = offsetMicros }
        let scaled = (Double(offsetMicros) / speed).rounded()
        let natural = (scaled < 9.2e18 ? Int64(scaled) : Int64.max) - removedMicros
        guard let last = positionMicros else {
            positionMicros = natural
            return Placement(at: .microseconds(natural), skipped: nil)
        }
        if let limit = maximumGapMicros, natural - last > limit {
            let at = last + limit
            removedMicros += natural - at
            let recordedLimit = (Double(limit) * speed).rounded()
            let played = recordedLimit < 9.2e18 ? Int64(recordedLimit) : .max
            let left = max(0, (offsetMicros - lastOffsetMicros) - played)
            skippedMicros += left
            compressedGaps += 1
            positionMicros = at
            return Placement(at: .microseconds(at), skipped: .microseconds(left))
        }
        positionMicros = natural
        return Placement(at: .microseconds(natural), skipped: nil)
    }

    /// Whole microseconds in `duration` (recorded offsets have no finer part), clamped to `Int64`.
    private static func micros(_ duration: Duration) -> Int64 { duration.wholeMicroseconds }
}
