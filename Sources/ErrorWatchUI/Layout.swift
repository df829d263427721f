/// A small constraint layout, in the spirit of ratatui's `Layout`: split a rectangle into parts.
///
/// ```swift
/// let rows = Layout.split(screen, .vertical, [.fixed(1), .fill(1), .fixed(1)])   // header, body, footer
/// ```
public enum Layout {
    /// Splits `rect` along `axis` into one rectangle per constraint. The parts tile `rect` exactly when there is
    /// a `.fill`; fixed and percentage parts are served first, in order, and shrink when the space runs out.
    public static func split(_ rect: Rect, _ axis: Axis, _ constraints: [Constraint]) -> [Rect] {
        let total = axis == .horizontal ? rect.width : rect.height
        var sizes = [Int](repeating: 0, count: constraints.count)
        var remaining = total
        var weights = 0
        for (index, constraint) in constraints.enumerated() {
            switch constraint {
            case .fixed(let n):
                sizes[index] = min(max(0, n), remaining)
                remaining -= sizes[index]
            case .percentage(let p):
                sizes[index] = min(total * min(max(0, p), 100) / 100, remaining)
                remaining -= sizes[index]
            case .fill(let weight):
                weights += max(1, weight)
            }
        }
        if weights > 0 {
            var left = remaining
            var lastFill: Int?
            for (index, constraint) in constraints.enumerated() {
                guard case .fill(let weight) = constraint else { continue }
                sizes[index] = remaining * max(1, weight) / weights
                left -= sizes[index]
                lastFill = index
            }
            if let lastFill { sizes[lastFill] += left }
        }
        var result: [Rect] = []
        result.reserveCapacity(constraints.count)
        var offset = 0
        for size in sizes {
            switch axis {
            case .horizontal: result.append(Rect(x: rect.x + offset, y: rect.y, width: size, height: rect.height))
            case .vertical: result.append(Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: size))
            }
            offset += size
        }
        return result
    }
}
