/// The direction of a split.
public enum Axis: Sendable, Hashable {
    /// Parts side by side, left to right.
    case horizontal
    /// Parts stacked, top to bottom.
    case vertical
}
