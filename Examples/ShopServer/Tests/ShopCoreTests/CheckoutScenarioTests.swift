import Testing

@testable import ShopCore

struct CheckoutScenarioTests {
    private func draws(seed: UInt64, count: Int, rates: FailureRates = .standard) -> [CheckoutScenario] {
        let dice = ShopDice(seed: seed)
        return (0..<count).map { _ in CheckoutScenario.draw(from: dice, rates: rates) }
    }

    @Test func theSameSeedFailsTheSameWay() {
        #expect(draws(seed: 7, count: 500) == draws(seed: 7, count: 500))
        #expect(draws(seed: 7, count: 500) != draws(seed: 8, count: 500))
    }

    @Test func theStandardRatesShowInALongRun() {
        let all = draws(seed: 42, count: 20_000)
        func share(_ matches: (CheckoutScenario) -> Bool) -> Double {
            Double(all.filter(matches).count) / Double(all.count)
        }
        #expect(abs(share { $0 == .success } - 0.75) < 0.02)
        #expect(abs(share { if case .declined = $0 { true } else { false } } - 0.08) < 0.01)
        #expect(abs(share { $0.conflicts > 0 } - 0.12) < 0.01)
        #expect(abs(share { $0 == .deadlock } - 0.04) < 0.01)
        #expect(abs(share { $0 == .impossibleState } - 0.01) < 0.005)
        // Of the conflicts, about a fifth outlive the three attempts.
        let conflicts = all.filter { $0.conflicts > 0 }
        let persistent = Double(conflicts.filter { $0.conflicts >= 3 }.count) / Double(conflicts.count)
        #expect(abs(persistent - 0.2) < 0.04)
    }

    @Test func zeroRatesAlwaysSucceed() {
        let calm = FailureRates(declined: 0, conflict: 0, deadlock: 0, impossible: 0)
        #expect(draws(seed: 3, count: 1_000, rates: calm).allSatisfy { $0 == .success })
    }

    @Test func unitNumbersStayInTheHalfOpenRange() {
        let dice = ShopDice(seed: 0)
        let values = (0..<10_000).map { _ in dice.unit() }
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(Set(values).count == values.count)
    }
}
