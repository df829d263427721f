import Synchronization

/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, so `--seed 7` replays a run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A ``SeededGenerator`` shared by the demo's concurrent flows.
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
