/// How much of a split one part takes.
public enum Constraint: Sendable, Hashable {
    /// Exactly this many cells (fewer when there is not enough room).
    case fixed(Int)
    /// This percentage of the whole length, 0–100.
    case percentage(Int)
    /// A share of what the fixed and percentage parts leave, by weight.
    case fill(Int)
}
