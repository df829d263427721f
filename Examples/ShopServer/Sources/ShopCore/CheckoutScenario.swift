/// How often each failure happens to a checkout, as fractions of all checkouts; the rest succeed.
///
/// ```swift
/// let calm = FailureRates(declined: 0.02, conflict: 0.01, deadlock: 0, impossible: 0)
/// ```
public struct FailureRates: Sendable, Hashable {
    /// The payment provider declines the card.
    public var declined: Double
    /// The stock reservation conflicts at least once (retried; see ``CheckoutScenario/inventoryConflicts(_:)``).
    public var conflict: Double
    /// The database picks the order's transaction as a deadlock victim.
    public var deadlock: Double
    /// The stock row is found in a state that cannot happen (reported with `reportBug`).
    public var impossible: Double

    /// Creates rates; their sum must not exceed 1.
    public init(declined: Double, conflict: Double, deadlock: Double, impossible: Double) {
        precondition(
            [declined, conflict, deadlock, impossible].allSatisfy { $0 >= 0 }
                && declined + conflict + deadlock + impossible <= 1,
            "failure rates are fractions that add up to at most 1")
        self.declined = declined
        self.conflict = conflict
        self.deadlock = deadlock
        self.impossible = impossible
    }

    /// A busy afternoon: 8 % declined, 12 % conflicting, 4 % deadlocked, 1 % impossible; 75 % succeed.
    public static let standard = FailureRates(declined: 0.08, conflict: 0.12, deadlock: 0.04, impossible: 0.01)
}

/// What happens to one checkout, drawn from the shop's dice before it runs.
public enum CheckoutScenario: Sendable, Hashable {
    /// Everything works.
    case success
    /// The card is declined for this reason.
    case declined(reason: String)
    /// The stock reservation conflicts this many times in a row (from 1); with the checkout's three attempts,
    /// 3 or more means the customer gets `409`.
    case inventoryConflicts(Int)
    /// The order's transaction is a deadlock victim.
    case deadlock
    /// The stock row is in a state that cannot happen.
    case impossibleState

    /// The decline reasons a payment provider gives, drawn evenly.
    static let declineReasons = ["insufficient_funds", "expired_card", "do_not_honor", "incorrect_cvc"]

    /// Draws one scenario. A conflict clears after 1 attempt half the time, after 2 three times in ten, and
    /// persists through every attempt the remaining two times in ten.
    public static func draw(from dice: ShopDice, rates: FailureRates) -> CheckoutScenario {
        var roll = dice.unit()
        if roll < rates.declined { return .declined(reason: dice.pick(declineReasons)) }
        roll -= rates.declined
        if roll < rates.conflict {
            let persistence = dice.unit()
            return .inventoryConflicts(persistence < 0.5 ? 1 : persistence < 0.8 ? 2 : 3)
        }
        roll -= rates.conflict
        if roll < rates.deadlock { return .deadlock }
        roll -= rates.deadlock
        if roll < rates.impossible { return .impossibleState }
        return .success
    }
}
