/// How many colours the terminal can show. The caller decides it (from terminfo, `COLORTERM`, and `NO_COLOR`,
/// which means `.monochrome`) and passes it in the state.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    case truecolor
    case colors256
    case colors16
    case colors8
    case monochrome

    /// Short text for the header: `256 colours`.
    public var label: String {
        switch self {
        case .truecolor: "truecolor"
        case .colors256: "256 colours"
        case .colors16: "16 colours"
        case .colors8: "8 colours"
        case .monochrome: "no colour"
        }
    }
}

/// Colour depths order from `.monochrome` (least) to `.truecolor` (most), so a caller can cap one by another.
extension ColorDepth: Comparable {
    private var rank: Int {
        switch self {
        case .monochrome: 0
        case .colors8: 1
        case .colors16: 2
        case .colors256: 3
        case .truecolor: 4
        }
    }

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rank < rhs.rank }
}
