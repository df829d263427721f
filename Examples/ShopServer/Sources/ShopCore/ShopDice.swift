import Synchronization

/// The shop's seeded randomness: every failure the checkout simulates and every backoff jitter comes from here,
/// so a run with the same `--seed` and the same request order fails the same way.
///
/// SplitMix64 (Steele, Lea and Flood, 2014) under a lock: one 64-bit state, one multiply-xorshift per number,
/// shared by every request.
///
/// ```swift
/// let dice = ShopDice(seed: 7)
/// if dice.unit() < 0.1 { … }   // 10 % of the time
/// ```
public final class ShopDice: Sendable {
    private let state: Mutex<UInt64>

    /// Creates the dice; the same seed gives the same numbers.
    public init(seed: UInt64) { self.state = Mutex(seed) }

    /// The next 64 random bits.
    public func next() -> UInt64 {
        let z = state.withLock { (state: inout UInt64) -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
        var mixed = z
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<1`, from the top 53 bits (every double in the range equally likely).
    public func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// One element of a non-empty array.
    public func pick<T>(_ choices: [T]) -> T {
        precondition(!choices.isEmpty, "pick from an empty array")
        return choices[Int(next() % UInt64(choices.count))]
    }
}
