import ErrorStreaming
import Synchronization

/// The shop's seeded randomness: every failure the checkout simulates and every backoff jitter comes from here,
/// so a run with the same `--seed` and the same request order fails the same way.
///
/// ErrorStreaming's ``SeededGenerator`` (SplitMix64) under a lock, shared by every request.
///
/// ```swift
/// let dice = ShopDice(seed: 7)
/// if dice.unit() < 0.1 { … }   // 10 % of the time
/// ```
public final class ShopDice: Sendable {
    private let generator: Mutex<SeededGenerator>

    /// Creates the dice; the same seed gives the same numbers.
    public init(seed: UInt64) { self.generator = Mutex(SeededGenerator(seed: seed)) }

    /// The next 64 random bits.
    public func next() -> UInt64 { generator.withLock { $0.next() } }

    /// A number in `0..<1`, from the top 53 bits (every double in the range equally likely).
    public func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// One element of a non-empty array.
    public func pick<T>(_ choices: [T]) -> T {
        precondition(!choices.isEmpty, "pick from an empty array")
        return choices[Int(next() % UInt64(choices.count))]
    }
}
