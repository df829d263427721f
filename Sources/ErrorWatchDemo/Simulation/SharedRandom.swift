import ErrorStreaming
import Synchronization

/// A ``SeededGenerator`` (ErrorStreaming's SplitMix64) shared by the demo's concurrent flows, so `--seed 7`
/// replays a run.
public final class SharedRandom: Sendable {
    private let generator: Mutex<SeededGenerator>

    /// A shared generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { generator = Mutex(SeededGenerator(seed: seed)) }

    /// A random integer in `range`.
    public func int(in range: ClosedRange<Int>) -> Int { generator.withLock { Int.random(in: range, using: &$0) } }

    /// A random duration between `low` and `high` milliseconds.
    public func milliseconds(_ low: Int, _ high: Int) -> Duration { .milliseconds(int(in: low...high)) }

    /// A number in `0..<1`.
    public func unit() -> Double { generator.withLock { Double.random(in: 0..<1, using: &$0) } }

    /// `true` with probability `p`.
    public func chance(_ p: Double) -> Bool { generator.withLock { Double.random(in: 0..<1, using: &$0) < p } }

    /// A fresh generator split off this one (for APIs that take an `inout RandomNumberGenerator`).
    public func split() -> SeededGenerator { generator.withLock { SeededGenerator(seed: $0.next()) } }
}
