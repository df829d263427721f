/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast random number generator whose whole sequence follows
/// from its seed, so a run replays exactly.
///
/// The house's one seeded generator: the demo's `--seed` replays, the example shop's simulated failures and the
/// property tests all draw from it, and their snapshots depend on its sequence never changing. One 64-bit state,
/// one add and one multiply-xorshift mix per number. Not for cryptography.
///
/// Production code, so apps and examples can replay runs; apps' tests also find it through
/// `import ErrorStreamingTesting`.
///
/// ```swift
/// var generator = SeededGenerator(seed: 7)
/// let roll = Int.random(in: 1...6, using: &generator)   // the same roll on every run
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`; the same seed gives the same numbers.
    ///
    /// - Parameter seed: Any 64-bit value, zero included.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
