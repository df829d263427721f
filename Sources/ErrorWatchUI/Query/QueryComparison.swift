/// How a `duration` term compares: `duration>200ms`, `duration>=1s`, `duration<5ms`, `duration<=1m`.
enum QueryComparison: String, Sendable, Hashable, CaseIterable {
    case above = ">"
    case atLeast = ">="
    case below = "<"
    case atMost = "<="

    /// Whether `value` compares so with `limit`.
    func holds(_ value: UInt64, _ limit: UInt64) -> Bool {
        switch self {
        case .above: value > limit
        case .atLeast: value >= limit
        case .below: value < limit
        case .atMost: value <= limit
        }
    }

    /// Nanoseconds of a duration written with a unit: `250ns`, `850us` (or `µs`), `200ms`, `1.5s`, `2m`, `1h`;
    /// `nil` for anything else.
    static func nanos(_ text: String) -> UInt64? {
        let units: [(String, Double)] = [
            ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9),
        ]
        let lowered = text.lowercased()
        // Longest suffix first: `ms` before `s`.
        for (unit, scale) in units.sorted(by: { $0.0.count > $1.0.count }) where lowered.hasSuffix(unit) {
            let number = lowered.dropLast(unit.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite, value * scale < 1.8e19
            else { return nil }
            return UInt64((value * scale).rounded())
        }
        return nil
    }
}
